import os
import unittest

from counter import count


class CountTest(unittest.TestCase):
    def test_count(self):
        self.assertEqual(count(4), 6)

    def test_env(self):
        flavour = os.environ.get("RUNBOUND_FLAVOUR", "none")
        self.assertTrue(flavour)
