# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: 2026 The fsdeprecate authors
"""The boot queue: at most JOBS boots at once, the longest expected first."""
import threading
import time
import unittest

from fsrig.boots import BootQueue, longest_first


class Queue(unittest.TestCase):
    def waiting(self, q, n):
        for _ in range(500):
            with q.cv:
                if len(q.waiting) == n:
                    return
            time.sleep(0.01)
        self.fail(f"{n} boots never waited")

    def test_the_longest_waiting_boot_goes_first(self):
        q = BootQueue(1, times_file="/nonexistent/times.json")
        q.acquire(0)
        order = []

        def boot(expected):
            q.acquire(expected)
            order.append(expected)
            q.release()
        threads = []
        for i, expected in enumerate((1.0, 5.0, 3.0, 5.0)):
            threads.append(threading.Thread(target=boot, args=(expected,)))
            threads[-1].start()
            self.waiting(q, i + 1)
        q.release()
        for t in threads:
            t.join(5)
        self.assertEqual(order, [5.0, 5.0, 3.0, 1.0])

    def test_at_most_jobs_at_once(self):
        q = BootQueue(2, times_file="/nonexistent/times.json")
        q.acquire(1)
        q.acquire(1)
        t = threading.Thread(target=q.acquire, args=(9,))
        t.start()
        self.waiting(q, 1)
        self.assertEqual(q.busy, 2)
        q.release()
        t.join(5)
        self.assertFalse(t.is_alive())
        self.assertEqual(q.busy, 2)

    def test_at_least_one_job(self):
        self.assertEqual(BootQueue(0).jobs, 1)


class Order(unittest.TestCase):
    def test_longest_first_by_the_tagged_time_then_the_plain_one(self):
        times = {"a": 1.0, "b": 9.0, "debug-a": 20.0}
        self.assertEqual(longest_first(["a", "b", "c"], times), ["b", "a", "c"])
        self.assertEqual(longest_first(["a", "b", "c"], times, "debug-"), ["a", "b", "c"])


if __name__ == "__main__":
    unittest.main()
