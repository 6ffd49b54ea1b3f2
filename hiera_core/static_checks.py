"""Static checks on candidate source, per space (AST, pure).

A custom-kernel candidate must not fall back to the reference's forward; no candidate may hide
a fallback in try/except, start threads or processes, patch timers or the profiler, define tensor
subclasses, or introspect the harness (gc, frames).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass


@dataclass
class StaticProblem:
    check: str
    line: int
    message: str


CONCURRENCY_MODULES = {"threading", "multiprocessing", "concurrent", "asyncio", "_thread", "subprocess"}
INTROSPECTION_CALLS = {"gc.get_objects", "gc.get_referrers", "gc.get_referents", "sys._getframe",
                       "inspect.stack", "inspect.currentframe", "inspect.getouterframes"}
TIMER_TARGETS = ("time.", "torch.cuda.Event", "torch.cuda.synchronize", "torch.cuda.Stream.synchronize",
                 "torch.profiler", "torch.autograd.profiler", "torch.cuda.current_stream", "torch.cuda.default_stream")


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else node.attr
    return ""


def check_candidate(source: str, space: str, reference_class: str, first_line: int = 1) -> list[StaticProblem]:
    """Problems found in the candidate part of a proposal (lines offset by `first_line`)."""
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        return [StaticProblem("syntax", (error.lineno or 1) + first_line - 1, f"syntax error: {error.msg}")]
    problems: list[StaticProblem] = []

    def report(check: str, node: ast.AST, message: str) -> None:
        problems.append(StaticProblem(check, getattr(node, "lineno", 1) + first_line - 1, message))

    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and node.handlers:
            report("try-except", node, "try/except in a candidate can hide a fallback to the reference; "
                                       "let errors surface (try/finally to restore state is fine)")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for name in names:
                if name.split(".")[0] in CONCURRENCY_MODULES:
                    report("threads", node, f"imports {name}: candidates may not run work in other threads or processes")
                if name.split(".")[0] == "gc" or name in ("inspect",):
                    report("introspection", node, f"imports {name}: candidates may not inspect the harness")
        elif isinstance(node, ast.Call):
            name = _dotted(node.func)
            if name in INTROSPECTION_CALLS:
                report("introspection", node, f"calls {name}: candidates may not inspect the harness")
            if space == "custom_cuda" and (name == f"{reference_class}.forward" or name == "super().forward"
                                           or _is_super_forward(node.func)):
                report("reference-fallback", node, "a custom-kernel candidate calls the reference forward")
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                name = _dotted(target)
                if name.startswith(TIMER_TARGETS) or name in ("torch.cuda.synchronize", "time.perf_counter"):
                    report("timer-patching", node, f"assigns {name}: candidates may not patch timers or the profiler")
        elif isinstance(node, ast.ClassDef):
            bases = {_dotted(base) for base in node.bases}
            if bases & {"torch.Tensor", "Tensor"}:
                report("tensor-subclass", node, f"class {node.name} subclasses torch.Tensor")
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name in ("__torch_function__", "__torch_dispatch__"):
                    report("tensor-subclass", item, f"defines {item.name}: candidates may not intercept torch ops")
        elif isinstance(node, ast.Attribute) and node.attr in ("_make_subclass", "_make_wrapper_subclass"):
            report("tensor-subclass", node, f"uses torch.Tensor.{node.attr}")
    return problems


def _is_super_forward(func: ast.AST) -> bool:
    return (isinstance(func, ast.Attribute) and func.attr == "forward" and isinstance(func.value, ast.Call)
            and _dotted(func.value.func) == "super")
