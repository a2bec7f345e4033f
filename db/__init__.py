"""The verdict store: verdicts and notes with their history, on sqlite-utils."""
