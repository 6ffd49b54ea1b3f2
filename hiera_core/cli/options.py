"""The options `hiera`'s commands share, and the run settings they make with the [tool.hiera] values
of the address's workspace."""

from __future__ import annotations

import click

from hiera_core import settings as defaults
from hiera_core.cli.printing import fail
from hiera_core.errors import HieraError
from hiera_core.llm.config import RunSettings, run_settings

ADDRESS_HELP = "FILE.py or FILE.py::Class"


def device_option(function):
    return click.option("--device", type=click.Choice(defaults.DEVICES), default=None,
                        help="where to run the reference and candidates (default: cuda when a GPU is present)")(function)


def gpu_option(function):
    return click.option("--gpu", default=None, metavar="NAME",
                        help="roofline target from the peaks table (h200, h100, a100, l40s, rtx4090, b200, cpu); "
                             "default: the device it runs on")(function)


def common_output(function):
    function = click.option("--json", "as_json", is_flag=True, help="print one JSON object")(function)
    return click.option("--events", is_flag=True, help="JSON-lines progress events on stdout")(function)


def model_options(function):
    """--model, --base-url, --plan-model (optimize and plan; hiera_core.llm.config merges the other layers)."""
    for option in reversed((
            click.option("--model", default=None, metavar="NAME",
                         help="LLM at an OpenAI-compatible endpoint (else HIERA_MODEL, [tool.hiera] model, editor "
                              "settings; none: offline expert mode)"),
            click.option("--base-url", default=None, metavar="URL",
                         help="the endpoint, e.g. http://127.0.0.1:8000/v1 (else OPENAI_BASE_URL, ...; default: "
                              "OpenAI's); the API key is read from OPENAI_API_KEY only"),
            click.option("--plan-model", default=None, metavar="NAME",
                         help="a separate model for space selection (default: the model)"))):
        function = option(function)
    return function


def run_options(address: str, as_json: bool, events: bool, **flags) -> RunSettings:
    """The flags given (budget, device, timeout_s; None: not given) over the [tool.hiera] values of
    the address's workspace; a bad value there ends the command (exit 2)."""
    from hiera_core.store import find_workspace_root
    from hiera_core.task.load import split_address

    try:
        return run_settings(find_workspace_root(split_address(address)[0]), **flags)
    except HieraError as error:
        fail(error, as_json, events)


def spec_options(function):
    for option in reversed((
            click.argument("address", metavar=ADDRESS_HELP), device_option, gpu_option,
            click.option("--meta", is_flag=True, help="trace on the meta device only (no real run)"),
            timeout_option("seconds per worker step"),
            click.option("--no-cache", is_flag=True,
                         help="measure the reference afresh instead of using its spec cached in .hiera/cache "
                              "(shared with hiera optimize); the new one is cached"),
            common_output)):
        function = option(function)
    return function


BUDGET_RANGE = click.IntRange(defaults.BUDGET_MIN, defaults.BUDGET_MAX)


def timeout_option(what: str):
    """--timeout: `what` it limits, defaulting to [tool.hiera] timeout, else the default."""
    return click.option("--timeout", type=float, default=None,
                        help=f"{what} (default: [tool.hiera] timeout, else {defaults.TIMEOUT_S:g})")
