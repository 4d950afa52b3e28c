"""The rules language: rule files read, layered, compiled to a GameSpec."""
