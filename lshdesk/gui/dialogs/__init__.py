"""The app's dialogs: settings, help, about."""
