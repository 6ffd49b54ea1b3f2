"""`hiera-lsp`: the language server over stdio, or `hiera-lsp --check PATHS` headless."""

from __future__ import annotations

import sys

USAGE = ("usage: hiera-lsp [--stdio]            the language server over stdio\n"
         "       hiera-lsp --check PATHS...     the editor's diagnostics, headless (--check --help)\n"
         "       hiera-lsp --check - --stdin-filename NAME.cu   the same on stdin\n"
         "       hiera-lsp --version")
# Editors' launchers may name the transport; stdio is the only one there is.
SERVER_FLAGS = {"--stdio"}


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if "--check" in args:
        from hiera_lsp.check.command import main as check_main

        args.remove("--check")
        return check_main(args)
    if args in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    if args == ["--version"]:
        from hiera_core import __version__

        print(f"hiera-lsp {__version__}")
        return 0
    unknown = [arg for arg in args if arg not in SERVER_FLAGS]
    if unknown:
        # Starting the server anyway would leave a terminal user looking at a silent process.
        print(f"hiera-lsp: unknown argument {unknown[0]!r}\n{USAGE}", file=sys.stderr)
        return 2
    from hiera_lsp.server import main as server_main

    return server_main([])


if __name__ == "__main__":
    sys.exit(main())
