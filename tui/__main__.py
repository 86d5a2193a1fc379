"""`python -m tui` is `triage`."""
from tui.cli import main

raise SystemExit(main())
