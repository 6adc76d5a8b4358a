"""What lshdesk writes and reads back: sessions, CSV / JSON exports, the HTML report."""
