"""`hiera-lsp`: the language server over stdio, or `hiera-lsp --check PATHS` headless."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if "--check" in args:
        from hiera_lsp.check import main as check_main

        args.remove("--check")
        return check_main(args)
    from hiera_lsp.server import main as server_main

    return server_main(args)


if __name__ == "__main__":
    sys.exit(main())
