"""Candidates of the strategies generated and built in this process (the spaces' tests)."""

from hiera_core.spaces.strategy import ImplementContext
from hiera_core.spec.contract import prepare
from hiera_core.task.load import load_task


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
    namespace = {"__name__": "candidate"}
    exec(compile(task.info.source + "\n" + code, "candidate", "exec"), namespace)
    model = namespace["ModelNew"](*task.make_init()).eval()
    model.load_state_dict(prepared.model.state_dict())
    return model
