"""What the tests share that is not a fixture: helpers in modules named for what they help with.

Fixtures live in conftest.py files; a test module imports helpers from here, never from another
test module.
"""
