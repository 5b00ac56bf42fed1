"""The desktop app (PySide6): the main window, the tray, and their windows. The only Qt in memvault.

Widgets never touch the store: every call goes through `Operations`, which runs it on a worker
thread and tells the views what changed.
"""
