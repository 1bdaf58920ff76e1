"""The score sheet drawn in the browser: `scoresheet.js`, package data the pages serve."""
