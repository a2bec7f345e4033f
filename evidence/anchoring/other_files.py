"""Where else in the revision a quote is: the places of a quote in files other than the one it
cites (`Anchorer` finds the candidate files with its word index and asks these), as written, but
for whitespace or formatting, or in a notebook or a document read as it renders.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from evidence.anchoring.forms import FileView, QuoteForms
from evidence.anchoring.fuzzy import find_fuzzy
from evidence.anchoring.read_as import read_as_view
from evidence.anchoring.tiers import MAX_ELSEWHERE, find_verified
from evidence.model import Elsewhere, FileState, Tier

if TYPE_CHECKING:
    from evidence.revision import Revision, SourceFile

__all__ = ["OtherFiles"]


class OtherFiles:
    """The other-file searches of `Anchorer` (which gives the revision, views and floor)."""

    revision: Revision
    floor: float

    def _view(self, source: SourceFile) -> FileView:
        raise NotImplementedError

    def verified_places(
        self, forms: QuoteForms, cited: str, paths: Iterable[str], *, rendered: bool = True
    ) -> list[Elsewhere]:
        """The quote's exact/whitespace/normalized places in `paths` (in their order, at most
        MAX_ELSEWHERE), the cited file left out; with ``rendered``, a notebook's or document's
        place as it is read rendered (`read_as`) when it is not there as written."""
        found: list[Elsewhere] = []
        entries = self.revision.entries()
        for path in paths:
            if path == cited:
                continue
            entry = entries.get(path)
            known = self.revision.cached_text(entry.oid) if entry is not None else None
            # cheaper than reading it (every file, for a quote of common words): it lacks a
            # telltale word or the quote's longest token, and nothing the normalized tier
            # translates (asterisks, backticks, typographic quotes) could explain it
            if known is not None and _plain(known) and _lacks(forms, known):
                continue
            source = self.revision.read(path)
            if source.state is not FileState.OK or not source.text:
                continue
            view = self._view(source)
            # every verified tier finds the quote's normalized tokens in the translated text
            if _lacks(forms, view.text if _plain(view.text) else view.translated):
                continue
            hit = find_verified(forms, view)
            if not hit.spans and rendered:
                seen = read_as_view(path, source.text)
                if seen is not None:  # as its reader saw it: verified, not verbatim
                    hit = find_verified(forms, seen)
                    hit = replace(hit, tier=Tier.NORMALIZED, tiers=()) if hit.spans else hit
            found.extend(Elsewhere(path, span, hit.tier) for span in hit.spans)
            if len(found) >= MAX_ELSEWHERE:
                break
        return found[:MAX_ELSEWHERE]

    def fuzzy_places(
        self, forms: QuoteForms, cited: str, paths: Iterable[str]
    ) -> list[tuple[float, Elsewhere]]:
        """The two best fuzzy passages of each of `paths` (the cited file left out), scored; a
        file holding the quote verbatim or normalized gives those places instead (scored 100).

        These are the files holding most of the quote's rarest words: one of them may be two
        words joined where a backtick was lost ("Input`s" quoted "Inputs"), a word other files
        hold, so that the file was no candidate for a verified place.
        """
        scored: list[tuple[float, Elsewhere]] = []
        for path in paths:
            if path == cited:
                continue
            source = self.revision.read(path)
            if source.state is not FileState.OK or not source.text:
                continue
            view = self._view(source)
            hit = find_verified(forms, view)
            if hit.spans:
                scored.extend((100.0, Elsewhere(path, span, hit.tier)) for span in hit.spans)
                continue
            for passage in find_fuzzy(forms, view, self.floor)[:2]:
                scored.append((passage.score, Elsewhere(path, passage.lines, Tier.FUZZY)))
        return scored


def _plain(text: str) -> bool:
    """Nothing in ``text`` that normalizing translates: what the quote lacks, it lacks."""
    return "*" not in text and "`" not in text and text.isascii()


def _lacks(forms: QuoteForms, text: str) -> bool:
    """``text`` lacks a telltale word of the quote, or its longest token."""
    return forms.longest not in text or any(word not in text for word in forms.telltale)
