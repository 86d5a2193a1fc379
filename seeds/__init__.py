"""The bundled abstract lists; `iclr2024.txt` opens when `triage` is given no file."""
from importlib.resources import files

DEFAULT = files(__name__) / "iclr2024.txt"
