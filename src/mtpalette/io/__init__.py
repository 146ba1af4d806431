"""Reading and validating inputs; every error names the file and the line."""
