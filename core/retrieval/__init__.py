"""core/retrieval"""
