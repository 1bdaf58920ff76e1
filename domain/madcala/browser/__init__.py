"""Madcala drawn in the browser: `madcala.js`, package data the pages serve."""
