import hexcore as hc
