"""The judge's channel to a candidate runner: JSON messages on a pipe pair, tensors as raw bytes in
shared-memory files the judge creates (one for each direction).

The judge (hiera_core.verify.judge) never imports candidate code; the runner (hiera_core.worker.runner) does
and only answers requests. Everything the runner says is data the judge validates: a message is
a JSON object whose tensors are described by dtype, shape and where their bytes lie in the
runner's file, never a pickle (unpickling what a candidate wrote would run its code in the judge).
Imports torch lazily: the judge and the runner are both worker processes.
"""

from __future__ import annotations

import json
import mmap
import os
import select
import struct
import time
from dataclasses import dataclass

LENGTH = struct.Struct("<Q")
MAX_MESSAGE_BYTES = 64 * 2**20  # a JSON header; tensor bytes travel in the shared file
ALIGN = 256


class ChannelClosed(Exception):
    """The other side ended or closed its end of the pipe."""


class ChannelTimeout(Exception):
    """No answer within the time allowed."""


class BadMessage(Exception):
    """A message that is not what the protocol allows (hiera_core.worker.messages): from the runner,
    its fault, never the judge's; to the runner, from a judge of another version."""


@dataclass(frozen=True)
class TensorLayout:
    """Where one tensor's bytes lie in a payload file, and what they are."""

    dtype: str
    shape: tuple[int, ...]
    stride: tuple[int, ...]
    offset: int
    nbytes: int

    def to_dict(self) -> dict:
        return {"dtype": self.dtype, "shape": list(self.shape), "stride": list(self.stride), "offset": self.offset,
                "nbytes": self.nbytes}

    @staticmethod
    def from_dict(data: object) -> TensorLayout:
        if not isinstance(data, dict):
            raise BadMessage("a tensor description is not an object")
        try:
            layout = TensorLayout(str(data["dtype"]), tuple(_ints(data["shape"])), tuple(_ints(data["stride"])),
                                  int(data["offset"]), int(data["nbytes"]))
        except (KeyError, TypeError, ValueError) as error:
            raise BadMessage(f"a tensor description is malformed: {error}") from None
        if len(layout.shape) != len(layout.stride) or layout.offset < 0 or layout.nbytes < 0 \
                or any(size < 0 for size in layout.shape):
            raise BadMessage("a tensor description is inconsistent")
        return layout


def _ints(values: object) -> list[int]:
    if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise TypeError("expected a list of integers")
    return values


def dtype_named(name: str):
    import torch

    value = getattr(torch, name, None)
    if not isinstance(value, torch.dtype):
        raise BadMessage(f"unknown dtype {name!r}")
    return value


def dtype_name(dtype) -> str:
    return str(dtype).removeprefix("torch.")


class Channel:
    """One end of the channel: send to the other side's file and pipe, receive from ours."""

    def __init__(self, read_fd: int, write_fd: int, send_path: str, receive_path: str):
        self.read_fd = read_fd
        self.write_fd = write_fd
        self.send_path = send_path
        self.receive_path = receive_path
        self._send_file = os.open(send_path, os.O_RDWR)
        self._receive_file = os.open(receive_path, os.O_RDONLY)

    def close(self) -> None:
        for fd in (self._send_file, self._receive_file, self.read_fd, self.write_fd):
            try:
                os.close(fd)
            except OSError:
                pass

    # ---- sending -----------------------------------------------------------------------------------

    def send(self, message: dict, tensors: list | None = None) -> None:
        """`message` with `tensors` (torch tensors on any device) described under "tensors"."""
        layouts = self._write_tensors(tensors or [])
        body = json.dumps({**message, "tensors": [layout.to_dict() for layout in layouts]}).encode()
        data = LENGTH.pack(len(body)) + body
        view = memoryview(data)
        while view:
            written = os.write(self.write_fd, view)
            view = view[written:]

    def _write_tensors(self, tensors: list) -> list[TensorLayout]:
        import torch

        layouts, offset = [], 0
        for tensor in tensors:
            nbytes = tensor.numel() * tensor.element_size()
            layouts.append(TensorLayout(dtype_name(tensor.dtype), tuple(tensor.shape), tuple(tensor.stride()),
                                        offset, nbytes))
            offset += -(-nbytes // ALIGN) * ALIGN
        if offset == 0:
            return layouts
        if os.fstat(self._send_file).st_size < offset:
            os.ftruncate(self._send_file, offset)
        with mmap.mmap(self._send_file, offset) as mapped:
            for tensor, layout in zip(tensors, layouts):
                if layout.nbytes:
                    target = torch.frombuffer(mapped, dtype=torch.uint8, count=layout.nbytes, offset=layout.offset)
                    target.copy_(tensor.detach().contiguous().reshape(-1).view(torch.uint8))
                    del target
        return layouts

    # ---- receiving ---------------------------------------------------------------------------------

    def receive(self, timeout_s: float | None = None, device: str = "cpu") -> tuple[dict, list]:
        """The next message and its tensors, rebuilt on `device` with their strides."""
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        (length,) = LENGTH.unpack(self._read_exactly(LENGTH.size, deadline))
        if length > MAX_MESSAGE_BYTES:
            raise BadMessage(f"a message of {length} bytes")
        try:
            message = json.loads(self._read_exactly(length, deadline))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise BadMessage(f"a message that is not JSON: {error}") from None
        if not isinstance(message, dict) or not isinstance(message.get("tensors", []), list):
            raise BadMessage("a message that is not an object with a list of tensors")
        layouts = [TensorLayout.from_dict(item) for item in message.pop("tensors", [])]
        return message, self._read_tensors(layouts, device)

    def _read_exactly(self, count: int, deadline: float | None) -> bytes:
        chunks, remaining = [], count
        while remaining:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self.read_fd], [], [], wait)
            if not ready:
                raise ChannelTimeout()
            chunk = os.read(self.read_fd, min(remaining, 1 << 20))
            if not chunk:
                raise ChannelClosed()
            chunks.append(chunk)
            remaining -= len(chunk)
        return b"".join(chunks)

    def _read_tensors(self, layouts: list[TensorLayout], device: str) -> list:
        import torch

        if not layouts:
            return []
        size = os.fstat(self._receive_file).st_size
        end = max(layout.offset + layout.nbytes for layout in layouts)
        if end > size:
            raise BadMessage(f"tensor bytes described up to {end} in a file of {size}")
        tensors = []
        # A private copy-on-write map: writable for torch.frombuffer, and the file is never changed.
        mapped = mmap.mmap(self._receive_file, size, access=mmap.ACCESS_COPY) if size else None
        try:
            for layout in layouts:
                dtype = dtype_named(layout.dtype)
                count = 1
                for extent in layout.shape:
                    count *= extent
                itemsize = torch.empty((), dtype=dtype).element_size()
                if count * itemsize != layout.nbytes:
                    raise BadMessage(f"a {layout.dtype} tensor of shape {list(layout.shape)} in {layout.nbytes} bytes")
                out = torch.empty_strided(layout.shape, layout.stride, dtype=dtype, device=device) \
                    if _valid_strides(layout) else torch.empty(layout.shape, dtype=dtype, device=device)
                if count:
                    raw = torch.frombuffer(mapped, dtype=torch.uint8, count=layout.nbytes, offset=layout.offset)
                    out.copy_(raw.view(dtype).reshape(layout.shape))
                    del raw
                tensors.append(out)
        finally:
            if mapped is not None:
                mapped.close()
        return tensors


def _valid_strides(layout: TensorLayout) -> bool:
    """Strides that lay the shape out without overlap (a dense permutation); others are refused."""
    if any(step < 0 for step in layout.stride):
        return False
    order = sorted((step, size) for step, size in zip(layout.stride, layout.shape) if size > 1)
    expected = 1
    for step, size in order:
        if step != expected:
            return False
        expected *= size
    return True
