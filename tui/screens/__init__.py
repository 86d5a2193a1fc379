"""Screens pushed over the main view: help, and the pickers and editors of other features."""
