"""Mada drawn in the browser: `mada.js`, package data the pages serve."""
