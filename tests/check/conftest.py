import pytest


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A scratch folder the check runs in (its paths relative to it)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path
