"""Static checks on candidate source, per space (AST, pure).

No candidate may hide a fallback in try/except, start threads or processes, patch timers, the
profiler or the functions the verifier relies on (by assignment, setattr or mock.patch, through
any import alias), define tensor subclasses or intercept torch ops, introspect the harness (gc,
frames, sys.modules), run code built at run time (exec/eval/__import__), or pin data in L2 with a
persistence window (it survives the timer's L2 flush). A custom-kernel candidate must not fall
back to the reference's forward. C++ held in strings (torch extension sources) may not register
kernels for aten ops (they would replace the reference's and the verifier's), start threads, or
run Python. What static checks cannot see (a fallback through torch ops, patching done by hidden
code) the verifier checks at run time.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass


@dataclass
class StaticProblem:
    check: str
    line: int
    message: str


CONCURRENCY_MODULES = {"threading", "_thread", "multiprocessing", "concurrent", "asyncio", "subprocess", "signal",
                       "sched", "pty", "torch.multiprocessing"}
PROCESS_CALLS = ("os.fork", "os.forkpty", "os.system", "os.popen", "os.spawn", "os.exec", "os.posix_spawn")
INTROSPECTION_MODULES = {"gc", "inspect", "tracemalloc", "hiera_core"}
INTROSPECTION_CALLS = {"sys._getframe", "sys._current_frames", "sys.settrace", "sys.setprofile", "sys.getrefcount",
                       "threading.settrace", "threading.setprofile"}
FRAME_ATTRIBUTES = {"f_back", "f_locals", "f_globals", "tb_frame", "gi_frame", "cr_frame", "ag_frame",
                    "_getframe", "__subclasses__"}
DYNAMIC_CODE = {"exec", "eval", "compile", "__import__", "builtins.exec", "builtins.eval", "builtins.compile",
                "builtins.__import__"}
# Modules whose attributes start processes or threads, run code or inspect the harness: one read by a
# computed name (`getattr(os, "fo" + "rk")`, `vars(builtins)[name]`) reaches what the checks above name.
GUARDED_MODULES = {"os", "posix", "builtins", "sys", "ctypes", "importlib", "signal", "time", "threading", "_thread",
                   "subprocess", "multiprocessing", "gc", "inspect", "runpy", "code", "codeop", "types", "cuda"}
# CUDA contexts of a candidate's own (driver API, cuda.core): work queued there is out of reach of the
# device synchronisation the runner does before it answers, and would run beside the reference's timing.
OWN_CONTEXTS = ("cuCtxCreate", "cuCtxPushCurrent", "cuCtxSetCurrent", "cuGreenCtxCreate", "create_context",
                "cudaSetDeviceFlags")
# ctypes' ways to run Python from native code (a C callback, the C API): threads and code out of sight.
NATIVE_PYTHON = ("ctypes.CFUNCTYPE", "ctypes.PYFUNCTYPE", "ctypes.WINFUNCTYPE", "ctypes.pythonapi", "ctypes.PyDLL",
                 "ctypes.pydll")
# What the timer and the profiler read: patching any of these fakes a measurement.
TIMER_TARGETS = ("time.", "timeit.", "torch.cuda.Event", "torch.cuda.synchronize", "torch.cuda.Stream",
                 "torch.cuda.current_stream", "torch.cuda.default_stream", "torch.cuda.stream",
                 "torch.cuda.cudart", "torch.cuda.profiler", "torch.profiler", "torch.autograd.profiler",
                 "torch.utils.benchmark", "triton.testing")
# Settings a candidate may legitimately change (restoring them is its business).
CONFIG_TARGETS = ("torch.backends.", "torch._inductor.config.", "torch._dynamo.config.",
                  "torch._functorch.config.", "os.environ")
INTERCEPTING_BASES = {"torch.Tensor", "torch._C.TensorBase", "torch._C._TensorBase"}
MODE_BASES = ("TorchDispatchMode", "TorchFunctionMode")
L2_PERSISTENCE = ("persistingl2", "accesspolicywindow", "persisting_l2", "access_policy_window")
# In C++ sources (extensions): kernels registered for aten ops or as a fallback for all of them
# (TORCH_LIBRARY_IMPL(aten, ...), TORCH_LIBRARY_IMPL(_, ...), torch::Library(..., "aten", ...)),
# threads that outlive the call, and Python run or imported from C++ (out of these checks' sight).
NATIVE_PROBLEMS = (
    ("op-interception", re.compile(r"\bTORCH_LIBRARY(?:_IMPL|_FRAGMENT)?\s*\(\s*(?:aten|_)\s*,"
                                   r"|\bLibrary::\w+\s*,\s*\"(?:aten|_)\""),
     "C++ that registers kernels for aten ops (or a fallback for every op) replaces the ops the reference and "
     "the verifier run"),
    ("threads", re.compile(r"\bstd::(?:thread|jthread|async)\b|\bpthread_create\b"),
     "C++ that starts threads: candidates may not run work in other threads (at::parallel_for is fine)"),
    ("dynamic-code", re.compile(r"\bPyRun_|\bPyImport_|\b(?:py|pybind11)::(?:exec|eval|eval_file)\b"
                                r"|\b(?:py|pybind11)::module_?::import\b"),
     "C++ that runs or imports Python code escapes these checks"),
)


class _Aliases:
    """Names bound by imports anywhere in the source: `import time as t` makes t -> time."""

    def __init__(self, tree: ast.AST):
        self.names: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.names[alias.asname] = alias.name
                    else:
                        root = alias.name.split(".")[0]
                        self.names[root] = root
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    self.names[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def resolve(self, node: ast.AST) -> str:
        """Dotted name with its first part replaced by what it was imported as; '' if not a name."""
        if isinstance(node, ast.Name):
            return self.names.get(node.id, node.id)
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            return f"{base}.{node.attr}" if base else ""
        return ""

    def is_imported(self, node: ast.AST) -> bool:
        """Whether a dotted expression starts at an imported name (a module or something from one)."""
        while isinstance(node, ast.Attribute):
            node = node.value
        return isinstance(node, ast.Name) and node.id in self.names


def patch_check(target: str) -> tuple[str, str] | None:
    if target.startswith(CONFIG_TARGETS):
        return None
    if target.startswith(TIMER_TARGETS) or target in ("time", "timeit"):
        return "timer-patching", f"patches {target}: candidates may not change timers, events or the profiler"
    return "monkey-patching", (f"patches {target}: candidates may not replace library functions the "
                               f"verifier or the timer rely on")


def _string(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def check_candidate(source: str, space: str, reference_class: str, first_line: int = 1) -> list[StaticProblem]:
    """Problems found in the candidate part of a proposal (lines offset by `first_line`), by line."""
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        return [StaticProblem("syntax", (error.lineno or 1) + first_line - 1, f"syntax error: {error.msg}")]
    aliases = _Aliases(tree)
    problems: list[StaticProblem] = []

    def report(check: str, node: ast.AST, message: str) -> None:
        problems.append(StaticProblem(check, getattr(node, "lineno", 1) + first_line - 1, message))

    def patched(node: ast.AST, target: str) -> None:
        found = patch_check(target)
        if found:
            report(found[0], node, found[1])

    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and node.handlers:
            report("try-except", node, "try/except in a candidate can hide a fallback to the reference; "
                                       "let errors surface (try/finally to restore state is fine)")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            _check_import(node, report)
        elif isinstance(node, ast.Call):
            _check_call(node, aliases, space, reference_class, report, patched)
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for target in targets:
                for element in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]):
                    _check_store(node, element, aliases, patched, report)
        elif isinstance(node, ast.ClassDef):
            _check_class(node, aliases, space, reference_class, report)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                and node.name in ("__torch_function__", "__torch_dispatch__"):
            report("tensor-subclass", node, f"defines {node.name}: candidates may not intercept torch ops")
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            _check_module_dict_read(node, aliases, report)
        elif isinstance(node, ast.Attribute):
            if node.attr.startswith(OWN_CONTEXTS):
                report("threads", node, f"uses {node.attr}: a candidate runs in torch's CUDA context (work in a "
                                        f"context of its own would run on beside the reference's timing)")
            if aliases.resolve(node).startswith(NATIVE_PYTHON):
                report("dynamic-code", node, f"uses {aliases.resolve(node)}: native code that runs Python escapes "
                                             f"these checks")
            if node.attr in ("_make_subclass", "_make_wrapper_subclass", "as_subclass"):
                report("tensor-subclass", node, f"uses {node.attr}: outputs must be plain tensors")
            elif node.attr in FRAME_ATTRIBUTES:
                report("introspection", node, f"uses .{node.attr}: candidates may not inspect the harness's frames")
            elif aliases.resolve(node) == "sys.modules":
                report("introspection", node, "reads sys.modules: candidates may not reach into the harness")
            _check_l2_text(node, node.attr, report)
        elif isinstance(node, ast.Name):
            if node.id == "__builtins__":
                report("monkey-patching", node, "uses __builtins__: candidates may not change built-in functions")
            _check_l2_text(node, node.id, report)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            _check_l2_text(node, node.value, report)
            _check_native_text(node, node.value, report)
    problems.sort(key=lambda problem: problem.line)
    return problems


def _check_import(node: ast.Import | ast.ImportFrom, report) -> None:
    names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
    for name in names:
        parts = name.split(".")
        prefixes = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
        if prefixes & CONCURRENCY_MODULES:
            report("threads", node, f"imports {name}: candidates may not run work in other threads or processes")
        if prefixes & INTROSPECTION_MODULES:
            report("introspection", node, f"imports {name}: candidates may not inspect the harness")
        if parts[0] == "importlib":
            report("dynamic-code", node, f"imports {name}: candidates may not load code at run time")


def _check_reached(node: ast.AST, name: str, report) -> bool:
    """The problem with calling `name` (a dotted name), reported; whether there was one."""
    if name in INTROSPECTION_CALLS or name.startswith(("gc.", "inspect.")):
        report("introspection", node, f"calls {name}: candidates may not inspect the harness")
    elif name in DYNAMIC_CODE:
        report("dynamic-code", node, f"calls {name}: code built at run time escapes these checks")
    elif name.startswith(PROCESS_CALLS):
        report("threads", node, f"calls {name}: candidates may not start processes")
    else:
        return False
    return True


def _check_module_read(node: ast.AST, module: ast.AST, attribute: ast.AST | None, aliases: _Aliases,
                       report) -> None:
    """An attribute of a guarded module read by name (getattr, vars(), __dict__): a computed name is
    refused, a constant one checked as the call it reaches."""
    base = aliases.resolve(module)
    if not (base and aliases.is_imported(module) and base.split(".")[0] in GUARDED_MODULES):
        return
    name = _string(attribute) if attribute is not None else None
    if name is None:
        report("dynamic-code", node, f"reads an attribute of {base} by a computed name: what it reaches escapes "
                                     f"these checks")
    else:
        _check_reached(node, f"{base}.{name}", report)


def _check_module_dict_read(node: ast.Subscript, aliases: _Aliases, report) -> None:
    container = node.value
    if isinstance(container, ast.Attribute) and container.attr == "__dict__":
        _check_module_read(node, container.value, node.slice, aliases, report)
    elif isinstance(container, ast.Call) and aliases.resolve(container.func) == "vars" and container.args:
        _check_module_read(node, container.args[0], node.slice, aliases, report)


def _check_call(node: ast.Call, aliases: _Aliases, space: str, reference_class: str, report, patched) -> None:
    name = aliases.resolve(node.func)
    if _check_reached(node, name, report):
        name = ""  # reported: none of the checks below applies
    if name == "getattr" and node.args:
        _check_module_read(node, node.args[0], node.args[1] if len(node.args) > 1 else None, aliases, report)
    elif name.startswith("contextlib.suppress") or name == "suppress":
        report("try-except", node, "contextlib.suppress can hide a fallback like try/except does")
    elif name in ("setattr", "delattr") and node.args:
        attribute = _string(node.args[1]) if len(node.args) > 1 else None
        base = aliases.resolve(node.args[0])
        if base and aliases.is_imported(node.args[0]):
            patched(node, f"{base}.{attribute or '<computed name>'}")
    elif name.endswith(("mock.patch", "patch.object", "monkeypatch.setattr")):
        target = _string(node.args[0]) if node.args else None
        if target is None and node.args:
            target = f"{aliases.resolve(node.args[0])}.{_string(node.args[1]) if len(node.args) > 1 else ''}"
        patched(node, target or "<unknown target>")
    elif name.startswith("torch.library.") and any((_string(a) or "").startswith("aten") for a in node.args):
        report("op-interception", node, "registers an implementation for an aten op: candidates may not "
                                        "replace the ops the verifier uses")
    if space == "custom_cuda":
        func = node.func
        if (isinstance(func, ast.Attribute) and func.attr == "forward"
                and (isinstance(func.value, ast.Call) and aliases.resolve(func.value.func) == "super"
                     or aliases.resolve(func.value) == reference_class)):
            report("reference-fallback", node, "a custom-kernel candidate calls the reference forward")
        elif name == reference_class:
            report("reference-fallback", node, f"a custom-kernel candidate builds a {reference_class} "
                                               f"(the reference) to run it")


def _check_store(node: ast.AST, target: ast.AST, aliases: _Aliases, patched, report) -> None:
    if isinstance(target, ast.Attribute) and aliases.is_imported(target):
        patched(node, aliases.resolve(target))
    elif isinstance(target, ast.Subscript):
        container = target.value
        if isinstance(container, ast.Attribute) and container.attr == "__dict__" and aliases.is_imported(container):
            patched(node, f"{aliases.resolve(container.value)}.{_string(target.slice) or '<computed name>'}")
        elif isinstance(container, ast.Call) and aliases.resolve(container.func) == "vars" and container.args \
                and aliases.is_imported(container.args[0]):
            patched(node, f"{aliases.resolve(container.args[0])}.{_string(target.slice) or '<computed name>'}")
    elif isinstance(target, ast.Name) and target.id in ("__torch_function__", "__torch_dispatch__"):
        report("tensor-subclass", node, f"sets {target.id}: candidates may not intercept torch ops")


def _check_class(node: ast.ClassDef, aliases: _Aliases, space: str, reference_class: str, report) -> None:
    bases = {aliases.resolve(base) for base in node.bases}
    if bases & INTERCEPTING_BASES:
        report("tensor-subclass", node, f"class {node.name} subclasses torch.Tensor: outputs must be plain "
                                        f"tensors that hold their values")
    if any(base.endswith(MODE_BASES) for base in bases):
        report("op-interception", node, f"class {node.name} is a torch dispatch/function mode: candidates may "
                                        f"not intercept the ops the verifier runs")
    if space == "custom_cuda" and node.name == "ModelNew" and reference_class in bases:
        defines_forward = any(isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == "forward"
                              or isinstance(item, ast.Assign) and any(getattr(t, "id", "") == "forward"
                                                                      for t in item.targets)
                              for item in node.body)
        if not defines_forward:
            report("reference-fallback", node, f"ModelNew inherits {reference_class}.forward: a custom-kernel "
                                               f"candidate must implement forward itself")


def _check_native_text(node: ast.AST, text: str, report) -> None:
    """Problems in C++ held in a string (an extension's sources)."""
    for check, pattern, message in NATIVE_PROBLEMS:
        found = pattern.search(text)
        if found:
            report(check, _Offset(node, text.count("\n", 0, found.start())), f"{message} (`{found.group(0).strip()}`)")


@dataclass
class _Offset:
    """A node's position moved down `lines` lines: where in a multi-line string a problem is."""

    node: ast.AST
    lines: int

    @property
    def lineno(self) -> int:
        return getattr(self.node, "lineno", 1) + self.lines


def _check_l2_text(node: ast.AST, text: str, report) -> None:
    lowered = text.lower()
    if any(word in lowered for word in L2_PERSISTENCE):
        report("l2-persistence", node, "sets up L2 persistence (an access policy window or a persisting-L2 "
                                       "limit): persisting lines survive the timer's L2 flush")
