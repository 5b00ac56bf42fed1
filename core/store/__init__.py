"""core/store"""
