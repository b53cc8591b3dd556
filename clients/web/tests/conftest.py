"""One headless Chromium per test module, with touch emulation, driven through Debian's
chromedriver (given explicitly, so Selenium never looks for a driver online)."""

import json
import sqlite3
import subprocess

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def chromium_options() -> webdriver.ChromeOptions:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in (
        "--headless=new",
        "--no-sandbox",  # the CI container runs as root
        "--disable-dev-shm-usage",
        "--disable-gpu",
        # Without it Chromium sends no touchmove within 15 px of the touch's start.
        "--touch-slop-distance=0",
        # The page's timers (minimum hold, batching) must run as they would in front of a user.
        "--disable-background-timer-throttling",
        "--disable-renderer-backgrounding",
        # Frames at Chromium's own 60 Hz, as on a phone: touch samples come a frame apart, far
        # inside the drag-tracking item's 100 ms. Without a frame-rate limit Chromium drew as fast
        # as it could: 200 CPU-s against 47 for the reference page's and gestures' tests, the
        # same wall time.
    ):
        options.add_argument(argument)
    options.add_experimental_option(
        "mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2, "touch": True}})
    return options


@pytest.fixture(scope="module")
def browser():
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=chromium_options())
    driver.set_script_timeout(15)
    yield driver
    driver.quit()


