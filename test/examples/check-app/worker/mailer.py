# A worker that sends with the Python SDK, against the sandbox's demo account.
import os

from loops_so import LoopsClient

loops = LoopsClient(os.environ["LOOPS_API_KEY"])


def send_sign_in_link(email: str, url: str) -> None:
    loops.send_transactional_email(
        transactional_id="cdtg5cp1k90qxm7oj7ioc7eky",
        email=email,
        data_variables={"signInUrl": url},
    )


def send_password_reset(email: str, name: str, url: str) -> None:
    # Mistake: the email shows resetUrl and expiresInMinutes, not resetLink.
    loops.send_transactional_email(
        transactional_id="c1h3243uwicgpgajrgexlzdl5",
        email=email,
        data_variables={"firstName": name, "resetLink": url},
    )


def trial_started(email: str) -> None:
    loops.send_event(email=email, event_name="trial_started")
