"""Loaded by a test's language server (PYTHONPATH): parses of large documents wait until the file
named by HIERA_TEST_PARSE_GATE exists, so a test can hold a parse in progress for as long as it needs
instead of racing a parse that happens to be quick."""

import os
import time

_GATE = os.environ.get("HIERA_TEST_PARSE_GATE")
_LARGE = 100_000  # bytes: the test's large file, never its small ones

if _GATE:
    import hiera_lsp.documents

    _parse = hiera_lsp.documents.parse

    def _gated_parse(language, data, old):
        deadline = time.monotonic() + 120
        while len(data) > _LARGE and not os.path.exists(_GATE) and time.monotonic() < deadline:
            time.sleep(0.01)
        return _parse(language, data, old)

    hiera_lsp.documents.parse = _gated_parse
