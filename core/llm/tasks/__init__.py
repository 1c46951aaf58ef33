"""Where the LLM is used, each behind ``LLMClient`` and each with its local fallback.

    CascadeClassifier     intent: the local model when confident, the LLM when not (classify.py)
    LLMQueryTranslator    natural language -> SearchParams (translate.py)
    LLMReadmeCompressor   README > 2,000 chars -> summary (readme.py)
    LLMNarrator           the Auditor's narrative analysis (narrative.py)
    LLMTextScorer         documentation / ease-of-use / relevance scores (text_scores.py)
    ClientStructuredLLM   the research analyzer's and planner's StructuredLLM (research.py)
    GroundedWebSearch     the research web search: Gemini + Google Search grounding (web_search.py)
"""
