generate contact-fragment
