"""Accounts: names, passwords, log-in sessions, profiles and their routes."""
