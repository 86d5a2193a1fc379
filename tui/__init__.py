"""The terminal layer: the Textual app and the `triage` command line."""
