"""The output folder of a bench run: results.json, results.csv and report.html.

results.json is rewritten atomically after every task (so an interrupted run loses at most the
task in progress and `--resume` continues from it); results.csv and report.html are rewritten
from the same records each time, so the three always agree.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field, fields
from pathlib import Path

from hiera_core.bench.measures import summarise
from hiera_core.bench.record import TaskRecord
from hiera_core.errors import ErrorKind, HieraError
from hiera_core.store import atomic_write_json, atomic_write_text, iso_time, read_json

RESULTS_JSON = "results.json"
RESULTS_CSV = "results.csv"
REPORT_HTML = "report.html"
FORMAT = "hiera-bench/1"
# Settings that change what is measured: resuming under other values would mix two experiments.
RESUME_MUST_MATCH = ("device", "budget", "model", "endpoint", "samples", "timing_method", "compile_modes")

# results.csv: the record's scalar fields, the error flattened, the per-sample curve, each compile
# mode's ms (compile_ms_<mode>), then env_* columns.
_NESTED = ("error", "best_speedup_by_sample", "timings", "worker_s", "environment", "compile_modes_ms",
           "compile_errors", "candidates", "regions")
CSV_FIELDS = [f.name for f in fields(TaskRecord) if f.name not in _NESTED]
CSV_ERROR_FIELDS = ("error_stage", "error_kind", "error_message")


@dataclass
class BenchResults:
    settings: dict
    environment: dict
    command: list[str]
    tasks: list[TaskRecord] = field(default_factory=list)
    created: str = field(default_factory=iso_time)
    updated: str = field(default_factory=iso_time)

    def finished_ids(self) -> set[str]:
        return {record.id for record in self.tasks}

    def to_dict(self) -> dict:
        return {"format": FORMAT, "created": self.created, "updated": self.updated, "command": self.command,
                "settings": self.settings, "environment": self.environment, "summary": summarise(self.tasks),
                "tasks": [record.to_dict() for record in self.tasks]}

    @classmethod
    def from_dict(cls, data: dict) -> BenchResults:
        return cls(settings=data["settings"], environment=data["environment"], command=data.get("command", []),
                   tasks=[TaskRecord.from_dict(task) for task in data["tasks"]], created=data["created"],
                   updated=data["updated"])


def load(folder: Path) -> BenchResults | None:
    """The results in `folder`, None when there are none; unreadable ones are an error, not a fresh start."""
    path = folder / RESULTS_JSON
    if not path.exists():
        return None
    data = read_json(path)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise HieraError(f"{path} is not a hiera bench results file", file=str(path), kind=ErrorKind.USAGE,
                         hint="choose another --out folder")
    return BenchResults.from_dict(data)


def check_resumable(previous: BenchResults, settings: dict, folder: Path) -> None:
    changed = [key for key in RESUME_MUST_MATCH if previous.settings.get(key) != settings.get(key)]
    if changed:
        detail = ", ".join(f"{key} {previous.settings.get(key)!r} -> {settings.get(key)!r}" for key in changed)
        raise HieraError(f"cannot resume {folder}: it was measured with other settings ({detail})",
                         kind=ErrorKind.USAGE, hint="resume with the same settings, or write to another --out folder")


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def render_csv(results: BenchResults) -> str:
    env_keys = sorted({key for record in results.tasks for key in record.environment})
    modes = list(dict.fromkeys(mode for record in results.tasks for mode in record.compile_modes_ms))
    header = (CSV_FIELDS + list(CSV_ERROR_FIELDS) + ["best_speedup_by_sample"] + [f"compile_ms_{mode}" for mode in modes]
              + [f"env_{key}" for key in env_keys])
    stream = io.StringIO()
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(header)
    for record in results.tasks:
        data = record.to_dict()
        error = record.error or {}
        writer.writerow([_cell(data[name]) for name in CSV_FIELDS]
                        + [_cell(error.get(key.removeprefix("error_"))) for key in CSV_ERROR_FIELDS]
                        + [";".join(_cell(value) for value in record.best_speedup_by_sample)]
                        + [_cell(record.compile_modes_ms.get(mode)) for mode in modes]
                        + [_cell(record.environment.get(key)) for key in env_keys])
    return stream.getvalue()


def save(folder: Path, results: BenchResults) -> None:
    """Write results.json, results.csv and report.html (each atomically)."""
    from hiera_core.bench.report import render_report

    results.updated = iso_time()
    data = results.to_dict()
    atomic_write_json(folder / RESULTS_JSON, data)
    atomic_write_text(folder / RESULTS_CSV, render_csv(results))
    atomic_write_text(folder / REPORT_HTML, render_report(data))
