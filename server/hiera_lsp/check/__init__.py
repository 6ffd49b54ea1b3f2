"""`hiera-lsp --check [PATHS...]`: the editor's diagnostics, headless, for pre-commit and CI.

Exit status: 0 clean, 1 when a finding reaches --fail-on, 2 on a usage or internal error.
Never imports torch (or pygls); the analysers (tree-sitter) only when a file is not in the cache.

Each file is read here, bounded (regular files only, --max-file-size), looked up in the content-hash
cache, and otherwise analysed in a worker process: one per core when there are enough files to pay
for them, and killed when a file's analysis passes --time-limit, so a pathological file cannot
hold up the run. See docs/check.md.
"""
