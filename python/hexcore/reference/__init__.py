"""Small, obviously-correct pure-Python implementations of each game, used to
test the Rust engine. Same constructor arguments and move API (``play``,
``legal_moves``, ``count_moves``, ``is_over``, ``winners``, ``to_move``)."""
from .certificate import CertificateError, CheckedCertificate, check_certificate
from .churn import Churn
from .havannah import Havannah
from .hex import Hex
from .quintun import Quintun
from .wunchunk import Wunchunk
from .y import Y

__all__ = ["Churn", "Havannah", "Hex", "Quintun", "Wunchunk", "Y", "check_certificate", "CertificateError", "CheckedCertificate"]
