"""The app's windows and views."""
