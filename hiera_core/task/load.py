"""Loading a task: a KernelBench file or any nn.Module subclass named by a `# hiera:` directive.

Addressing: `FILE` (class `Model`, or the file's only directive-marked / nn.Module class) or
`FILE::Class`. Every failure is a HieraError naming file:line and the fix. Imports torch: runs in
worker processes only.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hiera_core.errors import ErrorKind, HieraError, is_out_of_memory
from hiera_core.task.directives import Directives, directives_above

INPUTS_HINT = ("add `# hiera: inputs=make_inputs init=make_init` directly above `class {cls}` "
               "(make_inputs() returns the list of forward() arguments, make_init() the constructor "
               "arguments), or define get_inputs() and get_init_inputs() (KernelBench format)")


def split_address(address: str) -> tuple[str, str | None]:
    """'path/to/file.py::Class' -> ('path/to/file.py', 'Class'); 'file.py' -> ('file.py', None)."""
    path, sep, class_name = address.partition("::")
    return path, (class_name or None) if sep else None


@dataclass
class ClassSite:
    name: str
    line: int
    bases: list[str]
    directives: Directives


@dataclass
class SourceInfo:
    """What can be learnt from the file's text without running it."""

    path: str
    source: str
    sha256: str
    classes: list[ClassSite]
    functions: dict[str, int]  # top-level function name -> line

    def module_classes(self) -> list[ClassSite]:
        """Classes that look like nn.Module subclasses (by their bases, transitively within the file)."""
        known = {"Module", "nn.Module", "torch.nn.Module"}
        found: list[ClassSite] = []
        changed = True
        while changed:
            changed = False
            for site in self.classes:
                if site not in found and any(base in known for base in site.bases):
                    found.append(site)
                    known.add(site.name)
                    changed = True
        return sorted(found, key=lambda site: site.line)


def read_source(path: str) -> SourceInfo:
    """Read and statically inspect a task file; syntax errors are reported with their location."""
    if not os.path.exists(path):
        raise HieraError("no such file", file=path, kind=ErrorKind.USAGE, hint="check the path (FILE or FILE::Class)")
    if not path.endswith(".py"):
        raise HieraError(f"{path} is not a Python file", file=path, kind=ErrorKind.USAGE,
                         hint="point hiera at the .py file that defines the nn.Module")
    try:
        with open(path, encoding="utf-8") as handle:
            source = handle.read()
    except UnicodeDecodeError as error:
        raise HieraError(f"file is not valid UTF-8 ({error.reason} at byte {error.start})", file=path,
                         kind=ErrorKind.SYNTAX, hint="save the file as UTF-8") from None
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as error:
        raise HieraError(f"syntax error: {error.msg}", file=path, line=error.lineno, kind=ErrorKind.SYNTAX,
                         hint="fix the syntax; `python -m py_compile FILE` shows the same error") from None
    lines = source.splitlines()
    classes = []
    functions: dict[str, int] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            first_line = min([node.lineno] + [d.lineno for d in node.decorator_list])
            classes.append(ClassSite(node.name, node.lineno, [ast.unparse(b) for b in node.bases],
                                     directives_above(lines, first_line)))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions[node.name] = node.lineno
    return SourceInfo(path, source, hashlib.sha256(source.encode()).hexdigest(), classes, functions)


def choose_class(info: SourceInfo, class_name: str | None) -> ClassSite:
    site = _choose_class(info, class_name)
    namesakes = [other for other in info.classes if other.name == site.name]
    if len(namesakes) > 1:
        lines = ", ".join(str(other.line) for other in namesakes)
        raise HieraError(f"{len(namesakes)} classes named {site.name} (lines {lines}): Python keeps only the last one",
                         file=info.path, line=namesakes[-1].line, kind=ErrorKind.USAGE,
                         hint="rename or delete all but one (a rewrite of Model is named ModelNew)")
    return site


def _choose_class(info: SourceInfo, class_name: str | None) -> ClassSite:
    modules = info.module_classes()
    if class_name:
        for site in info.classes:
            if site.name == class_name:
                return site
        names = ", ".join(s.name for s in modules) or "none"
        raise HieraError(f"no class '{class_name}' in the file (nn.Module classes found: {names})",
                         file=info.path, kind=ErrorKind.USAGE, hint="use FILE::Class with one of those names")
    by_name = {site.name: site for site in info.classes}
    if "Model" in by_name:
        return by_name["Model"]
    marked = [site for site in modules if site.directives.declared]
    if len(marked) == 1:
        return marked[0]
    if len(modules) == 1:
        return modules[0]
    if not modules:
        raise HieraError("no nn.Module subclass found", file=info.path, kind=ErrorKind.USAGE,
                         hint="define `class Model(nn.Module)` (KernelBench format) or a module with a "
                              "`# hiera: inputs=...` directive")
    names = ", ".join(site.name for site in (marked or modules))
    raise HieraError(f"several nn.Module classes ({names}); which one?", file=info.path, kind=ErrorKind.USAGE,
                     hint=f"address one as {info.path}::{(marked or modules)[0].name}")


@dataclass
class Task:
    path: str
    class_name: str
    info: SourceInfo
    site: ClassSite
    module: Any
    cls: type
    inputs_fn: Callable[[], Any]
    init_fn: Callable[[], Any] | None
    task_format: str  # "kernelbench" | "directive"
    inputs_line: int | None = None
    init_line: int | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def directives(self) -> Directives:
        return self.site.directives

    @property
    def address(self) -> str:
        return f"{self.path}::{self.class_name}"

    # ---- running user code, with errors mapped back to the task file -------------------------
    def user_error(self, error: BaseException, doing: str, fallback_line: int | None, hint: str,
                   kind: ErrorKind) -> HieraError:
        line = fallback_line
        for frame in reversed(traceback.extract_tb(error.__traceback__)):
            if os.path.abspath(frame.filename) == os.path.abspath(self.path):
                line = frame.lineno
                break
        if is_out_of_memory(error):
            return HieraError(f"ran out of memory while {doing}", file=self.path, line=line, kind=ErrorKind.OOM,
                              hint="reduce the sizes in the inputs function, or use --device cpu / a larger GPU")
        first = str(error).strip().splitlines()[0] if str(error).strip() else ""
        return HieraError(f"{doing} raised {type(error).__name__}: {first}", file=self.path, line=line,
                          kind=kind, hint=hint)

    def make_init(self) -> list:
        if self.init_fn is None:
            return []
        try:
            value = self.init_fn()
        except Exception as error:
            raise self.user_error(error, f"{self.init_fn.__name__}()", self.init_line,
                                  "make the init function return the constructor arguments", ErrorKind.INPUTS) from None
        if not isinstance(value, (list, tuple)):
            raise HieraError(f"{self.init_fn.__name__}() returned {type(value).__name__}, not a list",
                             file=self.path, line=self.init_line, kind=ErrorKind.INPUTS,
                             hint="return a list of constructor arguments, e.g. [4096]")
        return list(value)

    def make_inputs(self, device: str, seed: int | None = None) -> list:
        import torch

        if seed is not None:
            torch.manual_seed(seed)
        try:
            with torch.device(device):
                value = self.inputs_fn()
        except Exception as error:
            hint = "make the inputs function return the list of forward() arguments"
            if device != "cuda" and "CUDA" in str(error):
                hint = (f"the inputs are made on a CUDA device and this run is on {device}: run on a machine "
                        "with a GPU, or leave device= out of the inputs function (HIERA places the inputs)")
            raise self.user_error(error, f"{self.inputs_fn.__name__}()", self.inputs_line, hint,
                                  ErrorKind.INPUTS) from None
        if not isinstance(value, (list, tuple)):
            raise HieraError(f"{self.inputs_fn.__name__}() returned {type(value).__name__}, not a list",
                             file=self.path, line=self.inputs_line, kind=ErrorKind.INPUTS,
                             hint="return a list of forward() arguments, e.g. [torch.randn(16, 64)]")
        if device != "meta":
            value = [v.to(device) if isinstance(v, torch.Tensor) and v.device.type != device else v
                     for v in value]
        return list(value)

    def build_model(self, device: str, seed: int = 0, init_args: list | None = None):
        import torch

        torch.manual_seed(seed)
        args = self.make_init() if init_args is None else init_args
        try:
            with torch.device(device):
                model = self.cls(*args)
        except Exception as error:
            raise self.user_error(error, f"constructing {self.class_name}", self.site.line,
                                  "the constructor must accept the arguments the init function returns",
                                  ErrorKind.INIT) from None
        if device != "meta":
            model = model.to(device)
        # Inference contract: dropout off, batch norm on running statistics, no state carried.
        return model.eval()

    def run_forward(self, model, inputs: list):
        """Call forward under no_grad; check it returns a tensor or a tuple/list of tensors."""
        import torch

        try:
            with torch.no_grad():
                out = model(*inputs)
        except Exception as error:
            raise self.user_error(error, f"{self.class_name}.forward", self.site.line,
                                  "fix forward() or the inputs it is given", ErrorKind.FORWARD) from None
        check_outputs(out, self)
        return out


def check_outputs(out, task: Task) -> None:
    import torch

    items = out if isinstance(out, (tuple, list)) else [out]
    if not items or not all(isinstance(item, torch.Tensor) for item in items):
        kinds = ", ".join(type(item).__name__ for item in items) or "nothing"
        raise HieraError(f"{task.class_name}.forward returned {kinds}; HIERA needs a tensor or a tuple of tensors",
                         file=task.path, line=task.site.line, kind=ErrorKind.FORWARD,
                         hint="return the result tensor(s) from forward()")


def outputs_as_list(out) -> list:
    return list(out) if isinstance(out, (tuple, list)) else [out]


def load_task(address: str) -> Task:
    """Import the task file and resolve the module class and its input functions."""
    path, class_name = split_address(address)
    info = read_source(path)
    site = choose_class(info, class_name)
    module = import_file(info)
    cls = getattr(module, site.name, None)
    import torch

    if not (isinstance(cls, type) and issubclass(cls, torch.nn.Module)):
        raise HieraError(f"class {site.name} is not an nn.Module subclass", file=path, line=site.line,
                         kind=ErrorKind.USAGE, hint="HIERA optimizes torch.nn.Module subclasses")
    directives = site.directives
    for problem in directives.problems:
        raise HieraError(problem.message, file=path, line=problem.line, kind=ErrorKind.DIRECTIVE, hint=problem.hint)
    if directives.declared and directives.inputs:
        inputs_name, init_name, task_format = directives.inputs, directives.init, "directive"
    elif callable(getattr(module, "get_inputs", None)):
        inputs_name, task_format = "get_inputs", "kernelbench"
        init_name = "get_init_inputs" if callable(getattr(module, "get_init_inputs", None)) else None
    else:
        raise HieraError(f"class {site.name} has no inputs", file=path, line=site.line, kind=ErrorKind.INPUTS,
                         hint=INPUTS_HINT.format(cls=site.name))
    functions = {}
    for role, name in (("inputs", inputs_name), ("init", init_name)):
        if name is None:
            continue
        function = getattr(module, name, None)
        if not callable(function):
            line = directives.lines[0] if directives.declared else site.line
            raise HieraError(f"the {role} function '{name}' is not defined in the file", file=path, line=line,
                             kind=ErrorKind.DIRECTIVE,
                             hint=f"define `def {name}():` at the top level of {os.path.basename(path)}")
        functions[role] = function
    return Task(path=path, class_name=site.name, info=info, site=site, module=module, cls=cls,
                inputs_fn=functions["inputs"], init_fn=functions.get("init"), task_format=task_format,
                inputs_line=info.functions.get(inputs_name), init_line=info.functions.get(init_name or ""))


def import_file(info: SourceInfo, module_name: str | None = None):
    """Import a file as a fresh module (its folder on sys.path for sibling imports)."""
    path = os.path.abspath(info.path)
    name = module_name or f"hiera_task_{info.sha256[:16]}"
    folder = os.path.dirname(path)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        sys.modules.pop(name, None)
        line = None
        for frame in reversed(traceback.extract_tb(error.__traceback__)):
            if os.path.abspath(frame.filename) == path:
                line = frame.lineno
                break
        first = str(error).strip().splitlines()[0] if str(error).strip() else ""
        hint = ("install the missing package in the interpreter that runs hiera"
                if isinstance(error, ImportError) else "fix the error; `python FILE` shows the full traceback")
        raise HieraError(f"importing the file raised {type(error).__name__}: {first}", file=info.path,
                         line=line, kind=ErrorKind.IMPORT, hint=hint) from None
    return module
