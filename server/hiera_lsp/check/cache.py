"""The results cache of `hiera-lsp --check`: findings stored by what determines them, so an unchanged
file is not analysed again."""

from __future__ import annotations

import os

from hiera_core.analysis import CheckConfig, Finding

# the files whose changes may change a CUDA file's findings (a rule may read a header or binding file)
C_FAMILY = (".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hh", ".inl")


class ResultsCache:
    """Findings by content: one JSON file per (file content, path, neighbours, hiera code, config).

    Like ruff's cache, keyed by what determines the result: the file's bytes and name; for CUDA, the
    names, sizes and times of the C/C++/CUDA files next to it (rules may read a sibling header or
    binding file); the
    hiera version and the analysis code itself (an editable install changes without a new version);
    and the whole configuration (select, ignore, severities, exclude, arch). Proposals, whose findings
    depend on a reference file elsewhere, are not cached. Reads and writes never fail the run.
    """

    GITIGNORE = "# created by hiera-lsp --check\n*\n"

    def __init__(self, directory: str, fingerprint: str) -> None:
        self.directory = directory
        self._fingerprint = fingerprint
        self._neighbours: dict[str, list] = {}
        self._writable = True
        self._created = False

    @classmethod
    def open(cls, directory: str | None, config: CheckConfig) -> ResultsCache:
        import json

        from hiera_core import __version__

        config_state = json.dumps(vars(config), sort_keys=True, default=str)  # every field, arch included
        fingerprint = json.dumps([__version__, _analysis_code_stamp(), config_state])
        return cls(directory or os.path.join(_workspace_root(), ".hiera", "check-cache"), fingerprint)

    def key(self, path: str, source: bytes) -> str | None:
        import hashlib

        if path.endswith(".py") and b"hiera-proposal:" in source:
            return None
        digest = hashlib.sha256(source)
        for part in (path, self._neighbours_of(path), self._fingerprint):
            digest.update(b"\0" + part.encode("utf-8", "surrogateescape"))
        return digest.hexdigest()

    def get(self, key: str) -> list[Finding] | None:
        import json

        try:
            with open(os.path.join(self.directory, key + ".json"), encoding="utf-8") as handle:
                return [Finding(**record) for record in json.load(handle)]
        except (OSError, ValueError, TypeError):  # absent, or damaged: analyse again
            return None

    def put(self, key: str, findings: list[Finding]) -> None:
        import json

        if not self._writable:
            return
        temporary = os.path.join(self.directory, f".{key}.{os.getpid()}.tmp")
        try:
            if not self._created:
                os.makedirs(self.directory, exist_ok=True)
                ignore = os.path.join(self.directory, ".gitignore")
                if not os.path.exists(ignore):  # as ruff does: git never sees the cache
                    with open(ignore, "w", encoding="utf-8") as handle:
                        handle.write(self.GITIGNORE)
                self._created = True
            with open(temporary, "w", encoding="utf-8") as handle:
                json.dump([item.to_dict() for item in findings], handle)
            os.replace(temporary, os.path.join(self.directory, key + ".json"))  # atomic: parallel runs are safe
        except OSError:
            self._writable = False  # e.g. a read-only checkout: check on, uncached

    def _neighbours_of(self, path: str) -> str:
        """The C/C++/CUDA files beside a CUDA file, but for itself (its bytes are keyed already)."""
        if path.endswith(".py"):
            return ""  # Python rules read only the file (proposals, which read more, are not cached)
        folder, name = os.path.split(os.path.abspath(path))
        if folder not in self._neighbours:
            try:
                entries = [(entry.name, entry.stat()) for entry in os.scandir(folder)
                           if entry.name.endswith(C_FAMILY) and entry.is_file()]
            except OSError:
                entries = []
            self._neighbours[folder] = sorted((entry, info.st_size, info.st_mtime_ns) for entry, info in entries)
        return repr([entry for entry in self._neighbours[folder] if entry[0] != name])


def _analysis_code_stamp() -> str:
    """Names, sizes and modification times of the analysis code: a changed rule invalidates the cache."""
    import hiera_core.analysis
    import hiera_core.task.directives

    folder = os.path.dirname(hiera_core.analysis.__file__)
    # the rules' subpackages too (cuda_rules/): a rule edited there left stale findings cached
    files = sorted(os.path.join(root, name) for root, _, names in os.walk(folder) for name in names
                   if name.endswith(".py"))
    files.append(hiera_core.task.directives.__file__)
    stamp = []
    for file in files:
        info = os.stat(file)
        stamp.append(f"{os.path.relpath(file, folder)}:{info.st_size}:{info.st_mtime_ns}")
    return ",".join(stamp)


def _workspace_root() -> str:
    """The nearest folder above the current one with .hiera/, .git or pyproject.toml (as the store's)."""
    folder = os.getcwd()
    while True:
        if any(os.path.exists(os.path.join(folder, marker)) for marker in (".hiera", ".git", "pyproject.toml")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return os.getcwd()
        folder = parent

