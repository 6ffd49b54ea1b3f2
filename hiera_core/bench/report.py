"""report.html: the run's tables and plots in one file that opens offline (plots are base64 PNGs).

Every number in the tables carries its exact value in a `data-value` attribute (JSON), beside
the rounded text, so the page can be checked against results.json and results.csv.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math

from hiera_core.bench.measures import BASELINES, P_VALUES, geomean, level_name, p_key
from hiera_core.bench.record import TaskRecord
from hiera_core.errors import ErrorKind, HieraError

BASELINE_TITLES = {"eager": "eager", "compile": "torch.compile", "best_compile": "best torch.compile mode"}
TASK_COLUMNS = (  # (field, header, format)
    ("outcome", "outcome", "text"), ("correct", "correct", "bool"), ("space", "space", "text"),
    ("strategy", "strategy", "text"), ("eager_ms", "eager ms", "ms"), ("compile_ms", "compile ms", "ms"),
    ("best_compile_mode", "best compile mode", "text"), ("hiera_ms", "HIERA ms", "ms"),
    ("speedup_eager", "x eager", "x"), ("speedup_compile", "x compile", "x"),
    ("speedup_best_compile", "x best compile", "x"),
    ("roofline_pct", "roofline %", "pct"), ("samples", "samples", "int"),
    ("samples_to_first_valid", "first valid", "int"), ("tokens", "tokens", "int"), ("wall_s", "wall s", "s"),
    ("node", "node", "text"), ("gpu", "GPU", "text"),
)
MODEL_COLUMNS = (  # the model's samples per group, apart from offline candidates: (key, header, format)
    ("tasks", "tasks", "int"), ("samples", "samples", "int"), ("verified", "verified", "int"),
    ("valid_rate", "valid rate", "share"), ("transport_failures", "lost to the endpoint", "int"),
    ("tasks_with_a_valid_sample", "tasks with a valid sample", "int"),
    ("median_first_valid_sample", "median first valid sample", "num"),
    ("median_tokens_to_first_valid", "median tokens to first valid", "num"),
    ("median_tokens_to_best", "median tokens to best", "num"), ("cost", "cost", "num"),
)
CANDIDATE_COLUMNS = (  # each candidate of a task, in the loop's order: (key, header, format)
    ("name", "candidate", "text"), ("space", "space", "text"), ("status", "status", "text"), ("ms", "ms", "ms"),
    ("gpu_ms", "GPU ms", "ms"), ("bound", "bound", "text"), ("speedup", "x paired eager", "x"),
)
REGION_COLUMNS = (  # each region of a task's plan: (key, header, format)
    ("anchor", "anchor", "text"), ("kind", "kind", "text"), ("workload_class", "workload", "text"),
    ("bound_ms", "bound ms", "ms"), ("share", "share", "share"),
)
ENVIRONMENT_KEYS = ("device", "gpu_name", "device_name", "driver", "cuda", "cudnn", "torch", "hiera_version", "python",
                    "sm_clock_mhz", "max_sm_clock_mhz", "mem_clock_mhz", "max_mem_clock_mhz", "power_limit_w",
                    "cpu", "cpu_count", "platform", "model", "endpoint")


def require_matplotlib() -> None:
    """Fail before a long run, not after it, when the report cannot be drawn."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise HieraError("hiera bench draws its report with matplotlib, which is not installed", kind=ErrorKind.USAGE,
                         hint="pip install matplotlib (a dependency of hiera: reinstall it to get it back)") from None


def format_value(value, kind: str) -> str:
    if value is None:
        return "-"
    if kind == "bool":
        return "yes" if value else "no"
    if kind == "ms":
        return f"{value:.4g}"
    if kind == "x":
        return f"{value:.2f}x"
    if kind == "pct":
        return f"{value:.1f}%"
    if kind == "share":
        return f"{100 * value:.0f}%"
    if kind == "s":
        return f"{value:.1f}"
    if kind == "num":
        return f"{value:.6g}"
    return str(value)


def _cell(key: str, value, kind: str) -> str:
    return (f'<td data-key="{html.escape(key)}" data-value="{html.escape(json.dumps(value))}">'
            f"{html.escape(format_value(value, kind))}</td>")


# ---- plots ---------------------------------------------------------------------------------------

def _figure(width: float, height: float):
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=110, layout="constrained")


def _png(figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


# Tick mantissas on log axes, sparse to dense: the densest set that gives at most 8 ticks is used.
TICK_MANTISSAS = ((1.0,), (1.0, 2.0, 5.0), (1.0, 1.5, 2.0, 3.0, 5.0, 7.0), (1.0, 1.1, 1.2, 1.3, 1.5, 1.7, 2.0, 2.5,
                                                                        3.0, 4.0, 5.0, 6.0, 8.0))


def _log_scale(axes, which: str, values: list[float], suffix: str, anchor: float = 1.0) -> None:
    """Log scale over `values` and `anchor` (1x, 100%) with plain tick labels such as '1.5x' or '50%'."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter, NullLocator

    low, high = min([*values, anchor]) / 1.2, max([*values, anchor]) * 1.2
    decades = range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1)
    ticks: list[float] = []
    for mantissas in TICK_MANTISSAS:
        dense = [m * 10.0 ** d for d in decades for m in mantissas if low <= m * 10.0 ** d <= high]
        if len(dense) > 8 and ticks:
            break
        ticks = dense
    (axes.set_yscale if which == "y" else axes.set_xscale)("log")
    (axes.set_ylim if which == "y" else axes.set_xlim)(low, high)
    axis = axes.yaxis if which == "y" else axes.xaxis
    axis.set_major_locator(FixedLocator(ticks))
    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}{suffix}"))
    axis.set_minor_locator(NullLocator())
    axis.set_minor_formatter(NullFormatter())


def _no_data(axes, text: str) -> None:
    axes.text(0.5, 0.5, text, ha="center", va="center", transform=axes.transAxes, color="grey")
    axes.set_xticks([])
    axes.set_yticks([])


def speedup_plot(records: list[TaskRecord]) -> str:
    """Per level, the speedups of the valid tasks over each baseline (log scale)."""
    figure = _figure(15, 4)
    levels = sorted({r.level for r in records}, key=lambda level: (level is None, level or 0))
    for axes, baseline in zip(figure.subplots(1, len(BASELINES)), BASELINES):
        field = f"speedup_{baseline}"
        groups = [[getattr(r, field) for r in records if r.level == level and r.valid and getattr(r, field)]
                  for level in levels]
        axes.set_title(f"speedup over {BASELINE_TITLES[baseline]}")
        if not any(groups):
            _no_data(axes, "no valid task with a speedup")
            continue
        positions = [index + 1 for index, group in enumerate(groups) if group]
        axes.boxplot([group for group in groups if group], positions=positions, widths=0.5, showfliers=False)
        for position, group in zip(positions, [group for group in groups if group]):
            offsets = [position + 0.15 * ((index % 5) - 2) / 2 for index in range(len(group))]
            axes.scatter(offsets, group, s=14, alpha=0.7, zorder=3)
        axes.axhline(1.0, color="grey", linestyle="--", linewidth=1)
        _log_scale(axes, "y", [value for group in groups for value in group], "x")
        axes.set_xticks(range(1, len(levels) + 1), [level_name(level) for level in levels])
        axes.set_ylabel("speedup (log scale)")
    return _png(figure)


def roofline_plot(records: list[TaskRecord]) -> str:
    """Left: attained FLOP/s against arithmetic intensity under the device's roofs (tasks with
    FLOPs), eager hollow, HIERA filled. Right: every task's time as % of its roofline bound."""
    timed = [r for r in records if r.roofline_bound_ms and r.eager_ms]
    figure = _figure(12, max(4.0, 1.2 + 0.22 * len(timed)))
    left, right = figure.subplots(1, 2, width_ratios=[1.1, 1])
    with_flops = [r for r in timed if r.flops and r.intensity and r.peak_flops and r.peak_bw]
    if with_flops:
        peak_flops, peak_bw = with_flops[0].peak_flops, with_flops[0].peak_bw
        low = min(r.intensity for r in with_flops) / 4
        high = max(max(r.intensity for r in with_flops) * 4, 4 * peak_flops / peak_bw)
        xs = [low * (high / low) ** (step / 200) for step in range(201)]
        left.plot(xs, [min(peak_flops, x * peak_bw) / 1e9 for x in xs], color="black", linewidth=1.5,
                  label=f"roofline ({with_flops[0].roofline_device})")
        for r in with_flops:
            eager = r.flops / (r.eager_ms / 1000) / 1e9
            left.scatter([r.intensity], [eager], facecolors="none", edgecolors="tab:blue", s=30, zorder=3)
            if r.hiera_ms and r.valid:
                ours = r.flops / (r.hiera_ms / 1000) / 1e9
                left.scatter([r.intensity], [ours], color="tab:orange", s=30, zorder=4)
                left.plot([r.intensity, r.intensity], [eager, ours], color="grey", linewidth=0.8)
        left.scatter([], [], facecolors="none", edgecolors="tab:blue", label="eager")
        left.scatter([], [], color="tab:orange", label="HIERA")
        left.set_xscale("log")
        left.set_yscale("log")
        left.set_xlabel("arithmetic intensity (FLOP/byte)")
        left.set_ylabel("attained GFLOP/s")
        left.legend(loc="lower right", fontsize=8)
    else:
        _no_data(left, "no task with counted FLOPs")
    left.set_title("roofline")
    if timed:
        names = [r.id for r in timed]
        rows = list(range(len(timed)))
        right.scatter([r.roofline_pct_eager for r in timed], rows, facecolors="none", edgecolors="tab:blue",
                      s=24, label="eager")
        ours = [(row, r.roofline_pct) for row, r in zip(rows, timed) if r.roofline_pct and r.valid]
        right.scatter([pct for _, pct in ours], [row for row, _ in ours], color="tab:orange", s=24, label="HIERA")
        right.set_yticks(rows, names, fontsize=7)
        right.invert_yaxis()
        _log_scale(right, "x", [r.roofline_pct_eager for r in timed] + [pct for _, pct in ours], "%", 100.0)
        right.axvline(100.0, color="grey", linestyle="--", linewidth=1)
        right.set_xlabel("% of the roofline bound (log scale)")
        right.legend(loc="lower right", fontsize=8)
    else:
        _no_data(right, "no timed task")
    right.set_title("time against the roofline bound, per task")
    return _png(figure)


def samples_plot(records: list[TaskRecord]) -> str:
    """Best verified speedup over eager (as `hiera optimize` timed it) after each sample."""
    figure = _figure(7, 4)
    axes = figure.subplots()
    curves = [r.best_speedup_by_sample for r in records if r.best_speedup_by_sample]
    if not curves:
        _no_data(axes, "no task ran a candidate")
        return _png(figure)
    for curve in curves:
        points = [(number, value) for number, value in enumerate(curve, start=1) if value]
        if points:
            axes.plot([n for n, _ in points], [v for _, v in points], color="tab:blue", alpha=0.25, linewidth=1,
                      marker=".")
    longest = max(len(curve) for curve in curves)
    # A task keeps the reference (1x) until a sample beats it; a curve that ended stays at its last value.
    delivered = [geomean(max(1.0, (curve[min(step, len(curve) - 1)] or 1.0)) for curve in curves)
                 for step in range(longest)]
    axes.plot(range(1, longest + 1), delivered, color="tab:orange", linewidth=2.5, marker="o",
              label="geometric mean of max(1, best so far)")
    axes.axhline(1.0, color="grey", linestyle="--", linewidth=1)
    _log_scale(axes, "y", [v for curve in curves for v in curve if v] + delivered, "x")
    axes.set_xticks(range(1, longest + 1))
    axes.set_xlabel("samples (candidates implemented, verified and timed)")
    axes.set_ylabel("best speedup over eager (log scale)")
    axes.set_title("best speedup against samples")
    axes.legend(fontsize=8)
    return _png(figure)


# ---- page ----------------------------------------------------------------------------------------

def _summary_table(summary: dict) -> str:
    head = ["group", "tasks", "errors", "proposals", "validity"]
    head += [f"fast_{p_key(p)} {BASELINE_TITLES[b]}" for b in BASELINES for p in P_VALUES]
    head += [f"{stat} x {BASELINE_TITLES[b]}" for stat in ("geomean", "median") for b in BASELINES]
    head += ["library/custom proposals", "median wall s"]
    rows = []
    for name, group in [("overall", summary["overall"]), *summary["levels"].items()]:
        key = f"summary.{name}"
        cells = [f"<th>{html.escape(name)}</th>", _cell(f"{key}.tasks", group["tasks"], "int"),
                 _cell(f"{key}.errors", group["errors"], "int"), _cell(f"{key}.proposals", group["proposals"], "int"),
                 _cell(f"{key}.validity", group["validity"], "share")]
        cells += [_cell(f"{key}.fast_p.{b}.{p_key(p)}", group["fast_p"][b][p_key(p)], "share")
                  for b in BASELINES for p in P_VALUES]
        cells += [_cell(f"{key}.{stat}.{b}", group[stat][b], "x") for stat in ("geomean", "median") for b in BASELINES]
        cells += [_cell(f"{key}.library_or_custom", group["library_or_custom"], "share"),
                  _cell(f"{key}.median_wall_s", group["median_wall_s"], "s")]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return ("<table><thead><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>")


def _model_table(summary: dict) -> str:
    """The model-sample table, or "" when no task ran with a model."""
    groups = [(name, group["model"]) for name, group in [("overall", summary["overall"]), *summary["levels"].items()]
              if "model" in group]
    if not groups:
        return ""
    rows = ["<tr>" + f"<th>{html.escape(name)}</th>"
            + "".join(_cell(f"summary.{name}.model.{key}", model[key], kind) for key, _, kind in MODEL_COLUMNS)
            + "</tr>" for name, model in groups]
    return ("<h2>Model samples</h2><p>The model's samples apart from the offline candidates: valid rate over the "
            "answers judged (answers lost to the endpoint apart); tokens count every request sent before the "
            "answer, planning and reviews included.</p><table><thead><tr><th>group</th>"
            + "".join(f"<th>{html.escape(header)}</th>" for _, header, _ in MODEL_COLUMNS)
            + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>")


def _task_table(records: list[TaskRecord]) -> str:
    head = ["task", *(header for _, header, _ in TASK_COLUMNS), "note"]
    rows = []
    for r in records:
        values = r.to_dict()
        note = r.error["message"].splitlines()[0] if r.error else (r.check or "")
        for mode, why in (r.compile_errors or ({"default": r.compile_error} if r.compile_error else {})).items():
            note += f" (torch.compile {mode}, no baseline: {why})"
        rows.append(f'<tr data-task="{html.escape(r.id)}"><th>{html.escape(r.id)}</th>'
                    + "".join(_cell(name, values[name], kind) for name, _, kind in TASK_COLUMNS)
                    + f'<td class="note">{html.escape(note)}</td></tr>')
    return ("<table><thead><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>")


def _detail_table(records: list[TaskRecord], field: str, columns: tuple, note) -> str:
    """One row per entry of each task's `field` list (its candidates, its plan's regions), keyed
    `<field>.<index>.<key>` under the task's id; `note(entry)` fills the last column."""
    head = ["task", "#", *(header for _, header, _ in columns), "note"]
    rows = []
    for r in records:
        for index, entry in enumerate(getattr(r, field)):
            rows.append(f'<tr data-task-detail="{html.escape(r.id)}"><th>{html.escape(r.id)}</th><td>{index + 1}</td>'
                        + "".join(_cell(f"{field}.{index}.{key}", entry.get(key), kind) for key, _, kind in columns)
                        + f'<td class="note">{html.escape(note(entry) or "")}</td></tr>')
    if not rows:
        return "<p>none recorded</p>"
    return ("<table><thead><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>")


def _environment_table(environment: dict) -> str:
    rows = [f"<tr><th>{html.escape(key)}</th><td>{html.escape(str(environment.get(key)))}</td></tr>"
            for key in ENVIRONMENT_KEYS if environment.get(key) is not None]
    return "<table>" + "".join(rows) + "</table>"


STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 3px 7px; text-align: right; }
th { background: #f4f4f4; text-align: left; }
td.note { text-align: left; max-width: 40em; }
img { max-width: 100%; display: block; margin: 1em 0; }
div.wide { overflow-x: auto; }
code { background: #f4f4f4; padding: 1px 4px; }
"""


def render_report(data: dict) -> str:
    """The page for a results.json document (as BenchResults.to_dict makes it)."""
    records = [TaskRecord.from_dict(task) for task in data["tasks"]]
    settings = data["settings"]
    mode = f"model {settings['model']} at {settings['endpoint']}" if settings.get("model") else "offline expert mode"
    plots = [("Speedup distribution per level", speedup_plot(records)),
             ("Roofline", roofline_plot(records)),
             ("Best speedup against samples", samples_plot(records))]
    figures = "".join(f'<h2>{html.escape(title)}</h2><img alt="{html.escape(title)}" src="data:image/png;base64,{png}">'
                      for title, png in plots)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>HIERA bench</title><style>{STYLE}</style></head>
<body>
<h1>HIERA bench</h1>
<p>{len(records)} task(s) on <b>{html.escape(settings['device'])}</b>, budget {settings['budget']} candidate(s) per
task, {html.escape(mode)}. Updated {html.escape(data['updated'])} (started {html.escape(data['created'])}).</p>
<p>Command: <code>{html.escape(' '.join(data.get('command', [])))}</code></p>
<h2>Summary</h2>
<p>validity: the delivered module (the proposal, or the reference when nothing beat it) is correct;
fast_p: valid and more than p times faster than the baseline, over all tasks; geometric mean and
median over the valid tasks. Eager and torch.compile (each mode timed: {html.escape(', '.join(settings.get('compile_modes') or ['default']))};
"best" is the fastest mode for the task) are timed in one process by one method; HIERA's module is
timed against the reference alternately. Each speedup is one of two estimates (both in
results.json): paired (the proposal's ratio to its paired reference, times, over a compile mode,
that mode's ratio to eager) and direct (the baseline's time over the proposal's): the lower of
those made only of GPU time, which agrees across processes, else the lower of the two.</p>
<div class="wide">{_summary_table(data['summary'])}</div>
{_model_table(data['summary'])}
{figures}
<h2>Tasks</h2>
<div class="wide">{_task_table(records)}</div>
<h2>Candidates</h2>
<p>What each task's loop measured, in its order: each candidate's time (the larger of its GPU time and its
host time, which bounds it), its GPU time, and its speedup over the reference timed beside it; the check a
rejected one failed.</p>
<div class="wide">{_detail_table(records, "candidates", CANDIDATE_COLUMNS, lambda entry: entry.get("failed"))}</div>
<h2>Plan regions</h2>
<p>Each task's plan: its regions around anchor ops, their workload, roofline bound and share of the
reference's time, and the spaces ranked for each, best first.</p>
<div class="wide">{_detail_table(records, "regions", REGION_COLUMNS, lambda entry: "; ".join(entry.get("choices", [])))}</div>
<h2>Environment</h2>
{_environment_table(data['environment'])}
</body></html>
"""

