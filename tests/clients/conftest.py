"""Shared by the client tests: what the server advertises, taken from the server itself."""

from __future__ import annotations

import pytest

from hiera_lsp.server import create_server


@pytest.fixture(scope="session")
def advertised_commands() -> set[str]:
    """The command ids hiera-lsp lists in executeCommandProvider."""
    return set(create_server().protocol.fm.commands)
