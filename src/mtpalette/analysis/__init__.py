"""Where systems differ: compare-mt's analyses (word accuracy by frequency, any metric by
sentence bucket), on encoded tokens and the statistics the metrics compute."""
