"""The review screen (`screens.review.screen.ReviewScreen`) and the parts it owns."""
