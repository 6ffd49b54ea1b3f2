"""client-config/emacs/hiera.el in a real Emacs: eglot against the real hiera-lsp, in batch.

Skipped where Emacs or eglot is missing (Emacs 29 has eglot built in; Debian's Emacs 28 needs
the elpa-eglot package).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
HIERA_EL = REPO / "client-config" / "emacs" / "hiera.el"
EMACS = shutil.which("emacs")
PACKAGES = "(progn (require 'package) (package-initialize))"  # where Debian's elpa-eglot lives


def _has_eglot() -> bool:
    if EMACS is None:
        return False
    probe = subprocess.run([EMACS, "--batch", "--eval", PACKAGES, "--eval", "(require 'eglot)"],
                           capture_output=True, timeout=60)
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(not _has_eglot(), reason="needs Emacs with eglot")

SESSION = """\
{packages}
(load "{hiera_el}")
(setq hiera-server-command '("{python}" "-m" "hiera_lsp"))
(setq hiera-settings '(:device "cpu" :budget 2 :jobTimeLimit 120))
(find-file "{module}")
(apply #'eglot (eglot--guess-contact))
(message "SETTINGS %S" (plist-get (hiera--execute "hiera.serverInfo") :settings))
(goto-char (point-min)) (search-forward "def forward")
(hiera-optimize-module)
(let ((job (aref (hiera--execute "hiera.listJobs") 0)))
  (message "JOB %s %s" (plist-get job :title) (plist-get job :state))
  (message "CANCEL %S" (hiera--execute "hiera.cancelJob" (plist-get job :id))))
(goto-char (point-min)) (search-forward "import torch")
(condition-case err (hiera-optimize-module) (error (message "OUTSIDE %s" (error-message-string err))))
(cl-letf (((symbol-function 'ediff-files) (lambda (a b) (message "EDIFF %s %s" a b))))
  (with-temp-file "{proposal}" (insert "# proposal\\n"))
  (hiera-show-proposal-diff))
(eglot-shutdown (eglot-current-server))
"""


def test_hiera_el_byte_compiles_without_warnings(tmp_path):
    copy = tmp_path / "hiera.el"
    shutil.copy(HIERA_EL, copy)
    result = subprocess.run([EMACS, "--batch", "--eval", PACKAGES, "--eval", "(setq byte-compile-error-on-warn t)",
                             "-f", "batch-byte-compile", str(copy)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


@pytest.mark.slow
def test_eglot_session_with_the_real_server(tmp_path):
    module = tmp_path / "softmax.py"
    shutil.copy(REPO / "examples" / "softmax.py", module)
    script = tmp_path / "session.el"
    script.write_text(SESSION.format(packages=PACKAGES, hiera_el=HIERA_EL, python=sys.executable, module=module,
                                     proposal=tmp_path / "softmax_hiera.py"))
    result = subprocess.run([EMACS, "--batch", "-l", str(script)], cwd=tmp_path, capture_output=True, text=True,
                            timeout=180)
    log = result.stderr
    assert result.returncode == 0, log

    # hiera-settings reached the server as initializationOptions
    assert ':budget 2 :device "cpu"' in log and ":jobTimeLimit 120.0" in log, log
    # hiera-optimize-module ran the server's optimize action for the class at point, and the job could be cancelled
    assert "JOB HIERA optimize Model (softmax.py)" in log, log
    assert "CANCEL (:cancelled t)" in log, log
    # outside a class eglot finds no optimize action
    assert 'OUTSIDE [eglot] No "refactor.hiera.optimize" code actions here' in log, log
    assert f"EDIFF {module} {tmp_path / 'softmax_hiera.py'}" in log, log
