"""Sifaka drawn in the browser: `sifaka.js`, package data the pages serve."""
