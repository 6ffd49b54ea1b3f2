"""What the CUDA rule tests share: the findings of a `.cu` source as (code, line) pairs."""

from hiera_core.analysis import analyze_file


def found(source: str, code: str | None = None) -> list[tuple[str, int]]:
    """(code, 1-based line) of the findings of a .cu source, optionally of one code."""
    return [(f.code, f.start_line + 1) for f in analyze_file("k.cu", source) if code is None or f.code == code]
