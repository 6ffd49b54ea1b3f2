import sys

from hiera_lsp.cli import main

sys.exit(main())
