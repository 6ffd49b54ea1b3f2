"""Candidates of the strategies generated and built in this process (the spaces' tests)."""

import itertools
import sys
import types

from hiera_core.spaces.strategy import ImplementContext
from hiera_core.spec.contract import prepare
from hiera_core.task.load import load_task

_COUNTER = itertools.count()


def implement_context(path, device_for_plan="cuda", precision=None):
    """(task, prepared reference, the context a strategy generates from), planned as for `device_for_plan`."""
    task = load_task(str(path))
    prepared = prepare(task, "cpu", measure=False)
    spec = prepared.spec
    spec.device = device_for_plan
    if precision:
        spec.precision = precision
    return task, prepared, ImplementContext(spec, task.class_name, prepared.model, prepared.inputs, prepared.graph, "cpu")


def candidate_module(task, prepared, code):
    """ModelNew of a candidate's code after the reference's source, with the reference's weights."""
    # A module of its own, so torch.compile (dynamo) can import the globals a compiled forward reads.
    module = types.ModuleType(f"hiera_test_candidate_{next(_COUNTER)}")
    sys.modules[module.__name__] = module
    namespace = module.__dict__
    exec(compile(task.info.source + "\n" + code, module.__name__, "exec"), namespace)
    model = namespace["ModelNew"](*task.make_init()).eval()
    model.load_state_dict(prepared.model.state_dict())
    return model
