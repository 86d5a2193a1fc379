"""`python -m tui` is `triage`."""
from tui.cli import command

command()
