"""The pages for people: server-rendered HTML, their templates and their static files. Each game's
own drawing and touches come from its package (``Game.browser_assets``)."""
