"""What an operator tells the user of ossuary's work: its warnings, or its
error's sentence (the command line's, with file, place and field)."""

import ossuary


def run_and_report(operator, work):
    """Runs `work` (which returns ossuary's warnings) for `operator`: each
    warning reported, an OssuaryError reported as the error that cancels."""
    try:
        warnings = work()
    except ossuary.OssuaryError as error:
        operator.report({"ERROR"}, str(error))
        return {"CANCELLED"}
    for warning in warnings:
        operator.report({"WARNING"}, warning)
    return {"FINISHED"}
