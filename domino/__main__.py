import sys

from domino.cli import main

sys.exit(main())
