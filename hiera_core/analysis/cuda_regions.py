"""The facts a FunctionFlow records about a GPU function: control regions, accesses and declarations.

Variables are named `name@byte` (each declaration its own variable); names declared nowhere in the
function (builtins, globals, macros, callees) keep their plain name. THREAD and THREAD_YZ are the
pseudo-variables that threadIdx reads resolve to.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from tree_sitter import Node

THREAD = "threadIdx"  # threadIdx.x (and bare threadIdx)
THREAD_YZ = "threadIdx.yz"  # threadIdx.y / threadIdx.z


def display(variable: str) -> str:
    """The source name of a variable (`i@120` -> `i`)."""
    return variable.split("@", 1)[0]


@dataclass(eq=False)
class Region:
    """Bytes [start, end) that run only when `condition` holds (or, for an exit, did not fire)."""

    kind: str  # "if", "for", "while", "do", "switch", "ternary", "operand" (of && / ||) or "exit"
    condition: Node
    start: int
    end: int
    parent: Region | None = None  # the next enclosing region of the chain
    exit_kind: str = ""  # for exits: "return_statement", "continue_statement" or "break_statement"

    def chain(self) -> Iterator[Region]:
        region: Region | None = self
        while region is not None:
            yield region
            region = region.parent


@dataclass(eq=False)
class Access:
    """A use of a node of interest with the control chain in force where it runs."""

    node: Node
    control: Region | None


@dataclass(eq=False)
class Subscript(Access):
    base: str = ""  # the variable subscripted
    indices: list[Node] = field(default_factory=list)  # one per dimension: `s[i][j]` -> [i], [j]
    is_write: bool = False  # the element is assigned (`a[i] = v`, `a[i] += v`, `a[i]++`, `&a[i]`)
    is_update: bool = False  # a write that reads the old value first (`a[i] += v`, `a[i]++`)
    stored_at: int = 0  # for a write: where the store takes effect (the end of the assignment)


@dataclass(eq=False)
class Call(Access):
    name: str = ""  # the callee's text, e.g. "__syncthreads", "block.sync"


@dataclass
class Declaration:
    variable: str
    name: str
    node: Node  # the init_declarator
    value: Node
    type: str  # the declared type without the name, e.g. "int", "const int64_t"
    pointer_depth: int
