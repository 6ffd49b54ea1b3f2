;;; hiera.el --- HIERA's language server in Emacs, through eglot  -*- lexical-binding: t; -*-

;; Emacs 29 or later (eglot is built in), or Emacs 28 with the eglot package (tested with
;; Emacs 28.2 and eglot 1.9).  Load this file, then `M-x eglot' in a Python or CUDA buffer,
;; or add `eglot-ensure' to those modes' hooks.
;;
;;   (load "/path/to/hiera/client-config/emacs/hiera.el")
;;   (add-hook 'python-base-mode-hook #'eglot-ensure)
;;
;; Eglot runs one server per buffer: in the modes listed in `hiera-major-modes' HIERA takes the
;; place of pyright/pylsp.  Hover, diagnostics, code actions (`M-x eglot-code-actions': optimize,
;; profile, show the contract spec, apply or re-verify a proposal) and job progress in the mode
;; line come from the server; this file adds four commands:
;;   `hiera-optimize-module'      optimize the nn.Module (or __global__ kernel) at point
;;   `hiera-show-proposal-diff'   ediff a module against its <stem>_hiera.py proposal
;;   `hiera-cancel-job'           cancel a queued or running job
;;   `hiera-check-workspace'      `hiera-lsp --check' over the project, in a compilation buffer

;;; Code:

(require 'eglot)
(require 'jsonrpc)
(require 'project)

(defgroup hiera nil
  "HIERA: optimize PyTorch modules and CUDA kernels from the editor."
  :group 'tools
  :prefix "hiera-")

(defcustom hiera-server-command '("hiera-lsp")
  "Command line that starts the language server.
For an interpreter whose hiera-lsp is not on PATH, use
\(\"/path/to/venv/bin/python\" \"-m\" \"hiera_lsp\")."
  :type '(repeat string))

(defcustom hiera-major-modes '(python-mode python-ts-mode cuda-mode)
  "Major modes whose buffers eglot connects to HIERA.
`cuda-mode' comes from MELPA.  If .cu files open in `c++-mode',
adding it here makes HIERA replace clangd in every C++ buffer."
  :type '(repeat symbol))

(defcustom hiera-settings
  '(:model "" :baseUrl "" :device "" :jobTimeLimit 3600 :maxParallelJobs 1)
  "Server settings, sent as initializationOptions.
Keys: :model, :baseUrl, :budget, :device (\"cuda\", \"cpu\" or \"\"),
:pythonPath (the interpreter that runs jobs), :jobTimeLimit (seconds),
:maxParallelJobs.  A project can override them in .dir-locals.el
through `eglot-workspace-configuration', under :hiera."
  :type '(plist :value-type sexp))

(defconst hiera--proposal-suffix "_hiera.py"
  "A module's proposal is <stem>_hiera.py next to it.")

(defun hiera--server-program (&optional _interactive)
  "The eglot server program: `hiera-server-command' with `hiera-settings'."
  (append hiera-server-command (list :initializationOptions hiera-settings)))

(add-to-list 'eglot-server-programs (cons hiera-major-modes #'hiera--server-program))

(defun hiera--server ()
  "The eglot server of the current buffer, or an error saying how to start one."
  (or (eglot-current-server)
      (user-error "No HIERA server here: M-x eglot in a Python or CUDA buffer first")))

(defun hiera--execute (command &rest arguments)
  "Send workspace/executeCommand COMMAND with ARGUMENTS; return the answer."
  (jsonrpc-request (hiera--server) :workspace/executeCommand
                   `(:command ,command :arguments ,(vconcat arguments))))

(defun hiera-optimize-module ()
  "Optimize the nn.Module subclass (or the __global__ kernel) at point.
The job runs on the file as saved, so the buffer is saved first."
  (interactive)
  (hiera--server)
  (when (buffer-modified-p)
    (save-buffer))
  (eglot-code-actions (point) (point) "refactor.hiera.optimize" t))

(defun hiera-show-proposal-diff ()
  "Compare this module with its proposal, or this proposal with its module."
  (interactive)
  (let* ((file (or buffer-file-name (user-error "This buffer visits no file")))
         (proposal-p (string-suffix-p hiera--proposal-suffix file))
         (source (if proposal-p
                     (concat (substring file 0 (- (length hiera--proposal-suffix))) ".py")
                   file))
         (proposal (if proposal-p file (concat (file-name-sans-extension file) hiera--proposal-suffix))))
    (unless (string-suffix-p ".py" file)
      (user-error "HIERA proposals belong to Python modules"))
    (unless (file-exists-p proposal)
      (user-error "No proposal %s yet: run `hiera-optimize-module' in the module's class"
                  (file-name-nondirectory proposal)))
    (ediff-files source proposal)))

(defun hiera-cancel-job ()
  "Cancel one of the server's queued or running jobs."
  (interactive)
  (let* ((jobs (seq-filter (lambda (job) (member (plist-get job :state) '("queued" "running")))
                           (append (hiera--execute "hiera.listJobs") nil)))
         (choices (mapcar (lambda (job)
                            (cons (format "%s (%s, %d%%)" (plist-get job :title) (plist-get job :state)
                                          (round (* 100 (or (plist-get job :progress) 0))))
                                  (plist-get job :id)))
                          jobs)))
    (unless choices
      (user-error "No HIERA job is queued or running"))
    (let* ((picked (completing-read "Cancel HIERA job: " choices nil t))
           (answer (hiera--execute "hiera.cancelJob" (cdr (assoc picked choices)))))
      (message (if (eq (plist-get answer :cancelled) t) "Cancelled %s" "%s had already finished")
               picked))))

(defun hiera-check-workspace ()
  "Run `hiera-lsp --check' (the pre-commit check) over the project.
The findings go to a compilation buffer.  In a git repository it checks
the tracked .py/.cu/.cuh files; elsewhere the whole folder."
  (interactive)
  (let* ((project (project-current))
         (default-directory (if project (project-root project) default-directory))
         (server (car hiera-server-command))
         (arguments (append (cdr hiera-server-command)
                            (list "--check")
                            (unless (file-exists-p ".git") (list ".")))))
    (compile (mapconcat #'shell-quote-argument (cons server arguments) " "))))

(provide 'hiera)
;;; hiera.el ends here
