"""The app's widgets: the line-drawn paper list and the detail pane."""
