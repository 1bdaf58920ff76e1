"""The service's Flask: Flask, less one question it asks again on every request.

Before it calls each before_request function, the view and each after_request function, Flask
asks ``ensure_sync`` whether the function is a coroutine function (``inspect``'s walk: a dozen
calls each time, some ten times an append). None of the service's is, and a function's answer
never changes: it is asked once per function here, and remembered.
"""

from __future__ import annotations

from collections.abc import Callable
from inspect import iscoroutinefunction
from types import FunctionType
from typing import Any

from flask import Flask


class TabletapeFlask(Flask):
    def __init__(self, import_name: str, **options: Any) -> None:
        super().__init__(import_name, **options)
        # Plain function (a bound method's own) -> whether it is a coroutine function. Only
        # functions defined in the code are remembered: there are as many as the code has.
        self._coroutine_functions: dict[FunctionType, bool] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        plain = getattr(func, "__func__", func)
        if type(plain) is not FunctionType:
            return super().ensure_sync(func)
        is_coroutine = self._coroutine_functions.get(plain)
        if is_coroutine is None:
            is_coroutine = self._coroutine_functions[plain] = iscoroutinefunction(func)
        return self.async_to_sync(func) if is_coroutine else func
