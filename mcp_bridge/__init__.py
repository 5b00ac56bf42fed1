"""mcp_bridge"""
